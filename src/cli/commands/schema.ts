/** `a2a-sim schema`: print the JSON Schema of scenario files, for editors. */
import type { CommandModule } from 'yargs';
import { scenarioJsonSchema } from '../../scenario/schema.js';

export const schemaCommand: CommandModule = {
  command: 'schema',
  describe: 'Print the JSON Schema of scenario files',
  handler: () => {
    process.stdout.write(`${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
  },
};
