/** `a2a-sim validate FILE...`: check scenario files; exit 2 when any has a problem. */
import { stat } from 'node:fs/promises';
import type { CommandModule } from 'yargs';
import { formatIssue, listScenarioFiles, loadScenarioFile, type ScenarioIssue } from '../../scenario/load.js';

interface ValidateArgs {
  files: string[];
}

export const validateCommand: CommandModule<object, ValidateArgs> = {
  command: 'validate <files..>',
  describe: 'Check scenario files (or directories of them) and report every problem with its line',
  builder: (yargs) =>
    yargs.positional('files', {
      type: 'string',
      array: true,
      demandOption: true,
      describe: 'Scenario files or directories',
    }) as never,
  handler: async (argv) => {
    const issues: ScenarioIssue[] = [];
    let valid = 0;
    for (const target of argv.files) {
      for (const file of await expand(target, issues)) {
        const result = await loadScenarioFile(file);
        issues.push(...result.issues);
        if (result.scenario) valid++;
      }
    }
    for (const issue of issues) process.stderr.write(`${formatIssue(issue)}\n`);
    if (issues.length) {
      process.stderr.write(`${issues.length} problem(s) found; ${valid} scenario(s) valid.\n`);
      process.exitCode = 2;
    } else {
      process.stdout.write(`ok: ${valid} scenario(s) valid.\n`);
    }
  },
};

async function expand(target: string, issues: ScenarioIssue[]): Promise<string[]> {
  try {
    return (await stat(target)).isDirectory() ? await listScenarioFiles(target) : [target];
  } catch (error) {
    issues.push({ file: target, path: '', message: `cannot read: ${(error as Error).message}` });
    return [];
  }
}
