/** `a2a-sim schema [--agent]`: print the JSON Schema of scenario files, or of agent files, for editors. */
import type { CommandModule } from 'yargs';
import { agentJsonSchema } from '../../agents/schema.js';
import { scenarioJsonSchema } from '../../scenario/schema.js';

interface SchemaArgs {
  agent: boolean;
}

export const schemaCommand: CommandModule<object, SchemaArgs> = {
  command: 'schema',
  describe: 'Print the JSON Schema of scenario files (--agent: of agent files)',
  builder: (yargs) =>
    yargs.option('agent', {
      type: 'boolean',
      default: false,
      describe: 'Print the schema of agent files (*.agent.yaml) instead',
    }) as never,
  handler: (argv) => {
    const schema = argv.agent ? agentJsonSchema() : scenarioJsonSchema();
    process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
  },
};
