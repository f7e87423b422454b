/** `a2a-sim validate FILE...`: check scenario, agent and chaos files; exit 2 when any has a problem. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { EXAMPLES } from '../../config/commands.js';
import { CHAOS_FILE, listChaosFiles, loadChaosFile } from '../../chaos/catalog.js';
import { chaosTextProblem } from '../../chaos/scenario-chaos.js';
import { AGENT_FILE, listAgentFiles, loadAgentFile, type AgentDefinition } from '../../agents/load.js';
import {
  BUILTIN_SCENARIO_DIR,
  formatIssue,
  listScenarioFiles,
  loadScenarioDirs,
  loadScenarioFile,
  type ScenarioIssue,
} from '../../scenario/load.js';

interface ValidateArgs {
  files: string[];
}

export const validateCommand: CommandModule<object, ValidateArgs> = {
  command: 'validate <files..>',
  describe:
    'Check scenario, agent and chaos profile files (or directories of them) and report every problem with its line',
  builder: (yargs) =>
    yargs
      .positional('files', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'Scenario files, agent files (*.agent.yaml), chaos profiles (*.chaos.yaml) or directories',
      })
      .example(...EXAMPLES.validate) as never,
  handler: async (argv) => {
    const issues: ScenarioIssue[] = [];
    const files: string[] = [];
    for (const target of argv.files) files.push(...(await expand(target, issues)));
    const agentFiles = files.filter((file) => AGENT_FILE.test(file));
    const chaosFiles = files.filter((file) => CHAOS_FILE.test(file));
    let profiles = 0;
    for (const file of chaosFiles) {
      const result = await loadChaosFile(file);
      issues.push(...result.issues);
      if (result.profile) profiles++;
    }
    const scenarioIds: string[] = [];
    for (const file of files.filter((f) => !AGENT_FILE.test(f) && !CHAOS_FILE.test(f))) {
      const result = await loadScenarioFile(file, chaosTextProblem);
      issues.push(...result.issues);
      if (result.scenario) scenarioIds.push(result.scenario.id);
    }
    const agents = await validateAgents(agentFiles, scenarioIds, issues);

    for (const issue of issues) process.stderr.write(`${formatIssue(issue)}\n`);
    const valid =
      [
        `${scenarioIds.length} scenario(s)`,
        ...(agentFiles.length ? [`${agents.length} agent(s)`] : []),
        ...(chaosFiles.length ? [`${profiles} chaos profile(s)`] : []),
      ].join(', ') + ' valid';
    if (issues.length) {
      process.stderr.write(`${issues.length} problem(s) found; ${valid}.\n`);
      process.exitCode = 2;
    } else {
      process.stdout.write(`ok: ${valid}.\n`);
    }
  },
};

/**
 * Agents refer to scenarios as `serve -s <their directory>` would resolve them: the scenarios
 * validated here, those beside the agent file, and the built-ins.
 */
async function validateAgents(
  files: string[],
  validatedScenarioIds: string[],
  issues: ScenarioIssue[],
): Promise<AgentDefinition[]> {
  if (!files.length) return [];
  const nearby = await loadScenarioDirs([
    ...new Set(files.map((f) => path.dirname(f))),
    BUILTIN_SCENARIO_DIR,
  ]);
  const scenarioIds = [...new Set([...validatedScenarioIds, ...nearby.scenarios.map((s) => s.id)])];
  const agents: AgentDefinition[] = [];
  for (const file of files) {
    const result = await loadAgentFile(file, { scenarioIds, agents });
    issues.push(...result.issues);
    if (result.agent) agents.push(result.agent);
  }
  return agents;
}

async function expand(target: string, issues: ScenarioIssue[]): Promise<string[]> {
  try {
    if (!(await stat(target)).isDirectory()) return [target];
    return [
      ...(await listScenarioFiles(target)),
      ...(await listAgentFiles(target)),
      ...(await listChaosFiles(target)),
    ];
  } catch (error) {
    issues.push({ file: target, path: '', message: `cannot read: ${(error as Error).message}` });
    return [];
  }
}
