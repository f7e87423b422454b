/** `a2a-sim schema [--agent | --chaos]`: print the JSON Schema of scenario, agent or chaos files, for editors. */
import type { Argv, CommandModule } from 'yargs';
import { agentJsonSchema } from '../../agents/schema.js';
import { chaosJsonSchema } from '../../chaos/profile.js';
import { COMMANDS, EXAMPLES } from '../../config/commands.js';
import { scenarioJsonSchema } from '../../scenario/schema.js';
import { withOptions } from '../options.js';

const schemaOptions = <T>(yargs: Argv<T>) => withOptions(yargs, COMMANDS.schema);

type SchemaArgs = ReturnType<typeof schemaOptions> extends Argv<infer A> ? A : never;

export const schemaCommand: CommandModule<object, SchemaArgs> = {
  command: 'schema',
  describe: 'Print the JSON Schema of scenario files (--agent: of agent files, --chaos: of chaos profiles)',
  builder: (yargs) => schemaOptions(yargs).example(...EXAMPLES.schema),
  handler: (argv) => {
    const schema = argv.agent ? agentJsonSchema() : argv.chaos ? chaosJsonSchema() : scenarioJsonSchema();
    process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
  },
};
