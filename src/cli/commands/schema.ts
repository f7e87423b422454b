/** `a2a-sim schema [--agent | --chaos]`: print the JSON Schema of scenario, agent or chaos files, for editors. */
import type { CommandModule } from 'yargs';
import { agentJsonSchema } from '../../agents/schema.js';
import { chaosJsonSchema } from '../../chaos/profile.js';
import { scenarioJsonSchema } from '../../scenario/schema.js';

interface SchemaArgs {
  agent: boolean;
  chaos: boolean;
}

export const schemaCommand: CommandModule<object, SchemaArgs> = {
  command: 'schema',
  describe: 'Print the JSON Schema of scenario files (--agent: of agent files, --chaos: of chaos profiles)',
  builder: (yargs) =>
    yargs
      .option('agent', {
        type: 'boolean',
        default: false,
        describe: 'Print the schema of agent files (*.agent.yaml) instead',
      })
      .option('chaos', {
        type: 'boolean',
        default: false,
        describe: 'Print the schema of chaos profiles (*.chaos.yaml) instead',
      }) as never,
  handler: (argv) => {
    const schema = argv.agent ? agentJsonSchema() : argv.chaos ? chaosJsonSchema() : scenarioJsonSchema();
    process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
  },
};
