/** `a2a-sim list`: the scenarios the simulator would load, in matching order. */
import type { Argv, CommandModule } from 'yargs';
import { BUILTIN_SCENARIO_DIR, formatIssue, loadScenarioDirs } from '../../scenario/load.js';
import type { Condition, Scenario } from '../../scenario/model.js';
import { withScenarioOptions } from '../options.js';

type ListArgs = (ReturnType<typeof withScenarioOptions> extends Argv<infer A> ? A : never) & {
  json: boolean;
};

export const listCommand: CommandModule<object, ListArgs> = {
  command: 'list',
  describe: 'List the scenarios that would be loaded, with their match rules',
  builder: (yargs) =>
    withScenarioOptions(yargs).option('json', {
      type: 'boolean',
      default: false,
      describe: 'Print JSON',
    }) as never,
  handler: async (argv) => {
    const dirs = [...argv.scenarios, ...(argv.builtins ? [BUILTIN_SCENARIO_DIR] : [])];
    const loaded = await loadScenarioDirs(dirs);
    const issues = loaded.issues;
    // The order matching tries them in: priority first (stable, so load order within it), fallbacks last.
    const scenarios = [...loaded.scenarios].sort(
      (a, b) => Number(a.fallback) - Number(b.fallback) || b.priority - a.priority,
    );
    for (const issue of issues) process.stderr.write(`${formatIssue(issue)}\n`);
    if (argv.json) {
      process.stdout.write(`${JSON.stringify(scenarios.map(summary), null, 2)}\n`);
    } else {
      for (const s of scenarios) {
        const rules = s.fallback
          ? 'fallback'
          : s.match.map(describeCondition).join(' | ') || '(only by metadata.scenario)';
        process.stdout.write(
          `${s.id.padEnd(16)} ${s.description}\n${''.padEnd(16)} match: ${rules}   [${s.file}]\n`,
        );
      }
    }
    if (issues.length) process.exitCode = 2;
  },
};

function summary(s: Scenario) {
  return {
    id: s.id,
    file: s.file,
    description: s.description,
    priority: s.priority,
    fallback: s.fallback,
    match: s.match.map(describeCondition),
    kind: s.script.kind === 'reply' ? 'message' : 'task',
  };
}

function describeCondition(c: Condition): string {
  const parts: string[] = [];
  if (c.text) parts.push(`text ${c.text}`);
  if (c.keywordList) parts.push(`keywords ${c.keywordList.join(', ')}`);
  if (c.messageIdPrefix !== undefined) parts.push(`messageId starts with "${c.messageIdPrefix}"`);
  if (c.messageIdRegex) parts.push(`messageId ${c.messageIdRegex}`);
  if (c.metadata) parts.push(`metadata ${JSON.stringify(Object.fromEntries(c.metadata))}`);
  if (c.skill !== undefined) parts.push(`skill ${c.skill}`);
  return parts.join(' and ');
}
