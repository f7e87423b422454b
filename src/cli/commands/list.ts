/** `a2a-sim list`: the scenarios the simulator would load, in matching order, and the agents. */
import type { Argv, CommandModule } from 'yargs';
import { agentSummary, loadAgentDirs } from '../../agents/load.js';
import { COMMANDS, EXAMPLES } from '../../config/commands.js';
import { describeCondition, scenarioSummary } from '../../scenario/describe.js';
import { chaosTextProblem } from '../../chaos/scenario-chaos.js';
import { BUILTIN_SCENARIO_DIR, formatIssue, loadScenarioDirs } from '../../scenario/load.js';
import { withOptions } from '../options.js';

const listOptions = <T>(yargs: Argv<T>) => withOptions(yargs, COMMANDS.list);

type ListArgs = ReturnType<typeof listOptions> extends Argv<infer A> ? A : never;

export const listCommand: CommandModule<object, ListArgs> = {
  command: 'list',
  describe: 'List the scenarios that would be loaded, with their match rules, and the agents',
  builder: (yargs) => listOptions(yargs).example(...EXAMPLES.list),
  handler: async (argv) => {
    const dirs = [...argv.scenarioDirs, ...(argv.builtinScenarios ? [BUILTIN_SCENARIO_DIR] : [])];
    const loaded = await loadScenarioDirs(dirs, { checkChaos: chaosTextProblem });
    const defined = await loadAgentDirs(
      dirs,
      loaded.scenarios.map((s) => s.id),
    );
    const issues = [...loaded.issues, ...defined.issues];
    // The order matching tries them in: priority first (stable, so load order within it), fallbacks last.
    const scenarios = [...loaded.scenarios].sort(
      (a, b) => Number(a.fallback) - Number(b.fallback) || b.priority - a.priority,
    );
    for (const issue of issues) process.stderr.write(`${formatIssue(issue)}\n`);
    if (argv.json) {
      const json = { scenarios: scenarios.map(scenarioSummary), agents: defined.agents.map(agentSummary) };
      process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    } else {
      for (const s of scenarios) {
        const rules = s.fallback
          ? 'fallback'
          : s.match.map(describeCondition).join(' | ') || '(only by metadata.scenario)';
        process.stdout.write(
          `${s.id.padEnd(16)} ${s.description}\n${''.padEnd(16)} match: ${rules}   [${s.file}]\n`,
        );
      }
      if (defined.agents.length) process.stdout.write('\nAgents, each at /agents/{id}/:\n');
      for (const a of defined.agents) {
        const security = a.security ? `, security: ${Object.keys(a.security).join(' or ')}` : '';
        process.stdout.write(
          `${a.id.padEnd(16)} ${a.name}: ${a.description}\n${''.padEnd(16)} code: ${a.code}${security}, plays: ${a.scenarioIds.join(', ')}   [${a.file}]\n`,
        );
      }
    }
    if (issues.length) process.exitCode = 2;
  },
};
