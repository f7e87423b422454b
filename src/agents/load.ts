/**
 * Reads agent definitions (`explore.agent.yaml`, `explore.agent.json`) from the scenario
 * directories. Every problem is reported like a scenario's, `file:line path: message`, and a
 * broken file is skipped: it never stops the others.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { displayPath, parseWithSchema, readSource, type FileIssue } from '../lib/yaml-file.js';
import type { SkillInfo } from '../scenario/model.js';
import { AgentFile, type AgentExtension, type AgentSecurity } from './schema.js';

export interface AgentDefinition {
  /** The file name without `.agent.yaml`; the agent lives at `/agents/{id}/`. */
  id: string;
  /** The gateway's `agent_code`. */
  code: string;
  file: string;
  name: string;
  description: string;
  version?: string;
  /** The scenarios it plays, `"*"` already expanded. */
  scenarioIds: string[];
  /** `scenarios: '*'`: it also plays the scenarios a reload adds. */
  everyScenario?: true;
  /** Replaces the skills of its scenarios on its card. */
  skills?: SkillInfo[];
  security?: AgentSecurity;
  /** Declared on its card; a `required` one must be activated by every call. */
  extensions?: AgentExtension[];
  /** Replace the simulator's modes on its card, and the media types its message parts may have. */
  defaultInputModes?: string[];
  defaultOutputModes?: string[];
  /** Where the gateway exposes it; `"*"` is any workspace. */
  workspaces: string[];
}

export interface AgentLoadResult {
  agents: AgentDefinition[];
  issues: FileIssue[];
}

export const AGENT_FILE = /\.agent\.(ya?ml|json)$/i;
const AGENT_ID = /^[A-Za-z0-9][\w.-]*$/;
/** `POST {prefix}/agents/a2a` is the gateway endpoint (protocol digest §8), not an agent. */
const RESERVED_IDS: ReadonlySet<string> = new Set(['a2a']);

export function agentIdOf(file: string): string {
  return path.basename(file).replace(AGENT_FILE, '');
}

/** Agent files directly inside `dir`, by name. */
export async function listAgentFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && AGENT_FILE.test(e.name))
    .map((e) => path.join(dir, e.name))
    .sort();
}

/**
 * Loads the agents of `dirs`, in order; an agent id from an earlier directory wins, as scenarios do.
 * References resolve against `scenarioIds`, the scenarios that were loaded.
 */
export async function loadAgentDirs(
  dirs: readonly string[],
  scenarioIds: readonly string[],
): Promise<AgentLoadResult> {
  const agents: AgentDefinition[] = [];
  const issues: FileIssue[] = [];
  for (const dir of dirs) {
    // The scenario loader already reports a directory it cannot read.
    const files = await listAgentFiles(dir).catch(() => []);
    for (const file of files) {
      if (agents.some((a) => a.id === agentIdOf(file))) continue;
      const result = await loadAgentFile(file, { scenarioIds, agents });
      issues.push(...result.issues);
      if (result.agent) agents.push(result.agent);
    }
  }
  return { agents, issues };
}

/** What an agent file is checked against. */
export interface AgentRefs {
  scenarioIds: readonly string[];
  /** Agents loaded before: ids and codes must not collide with theirs. */
  agents?: readonly AgentDefinition[];
}

export async function loadAgentFile(
  file: string,
  refs: AgentRefs,
): Promise<{ agent?: AgentDefinition; issues: FileIssue[] }> {
  const id = agentIdOf(file);
  const fileIssue = (message: string) => ({ issues: [{ file: displayPath(file), path: '', message }] });
  if (!AGENT_ID.test(id)) {
    return fileIssue(`"${id}" is not a valid agent id: use letters, digits, "-", "_" and "."`);
  }
  if (RESERVED_IDS.has(id)) {
    return fileIssue(`"${id}" is reserved (/agents/${id} is the gateway endpoint): rename the file`);
  }
  const source = await readSource(file);
  if ('issue' in source) return { issues: [source.issue] };
  return parseAgent(id, displayPath(file), source.text, refs);
}

/** Parses and checks one agent definition's source text. `file` is only used in messages. */
export function parseAgent(
  id: string,
  file: string,
  text: string,
  refs: AgentRefs,
): { agent?: AgentDefinition; issues: FileIssue[] } {
  const parsed = parseWithSchema(file, text, AgentFile);
  if ('issues' in parsed) return { issues: parsed.issues };
  const raw = parsed.value;
  const issues: FileIssue[] = [];

  const known = new Set(refs.scenarioIds);
  const scenarioIds = raw.scenarios === '*' ? [...refs.scenarioIds] : raw.scenarios;
  for (const [i, scenarioId] of scenarioIds.entries()) {
    if (!known.has(scenarioId)) {
      issues.push(
        parsed.at(
          ['scenarios', i],
          `no scenario "${scenarioId}" is loaded; loaded: ${refs.scenarioIds.join(', ') || '(none)'}`,
        ),
      );
    }
  }

  // The gateway finds an agent by id or by code: neither may name two agents.
  const code = raw.code ?? id;
  for (const other of refs.agents ?? []) {
    if (other.code === code || other.id === code) {
      issues.push(parsed.at(['code'], `"${code}" already names agent "${other.id}" (${other.file})`));
    } else if (other.code === id) {
      issues.push(
        parsed.at([], `the agent id "${id}" is already the code of agent "${other.id}" (${other.file})`),
      );
    }
  }
  if (issues.length) return { issues };

  return {
    agent: {
      id,
      code,
      file,
      name: raw.name,
      description: raw.description,
      ...(raw.version !== undefined && { version: raw.version }),
      scenarioIds,
      ...(raw.scenarios === '*' && { everyScenario: true as const }),
      ...(raw.skills && {
        skills: raw.skills.map((skill) => ({
          ...skill,
          tags: skill.tags ?? [],
          extended: skill.extended ?? false,
        })),
      }),
      ...(raw.security && { security: raw.security }),
      ...(raw.capabilities?.extensions && { extensions: raw.capabilities.extensions }),
      ...(raw.defaultInputModes && { defaultInputModes: raw.defaultInputModes }),
      ...(raw.defaultOutputModes && { defaultOutputModes: raw.defaultOutputModes }),
      workspaces: raw.workspaces ?? ['*'],
    },
    issues: [],
  };
}

/** An agent as people read it: a row of `a2a-sim list --json` and of `GET /_sim/scenarios`. */
export function agentSummary(a: AgentDefinition) {
  return {
    id: a.id,
    code: a.code,
    file: a.file,
    name: a.name,
    description: a.description,
    scenarios: a.scenarioIds,
    workspaces: a.workspaces,
    ...(a.security && { security: a.security }),
  };
}
