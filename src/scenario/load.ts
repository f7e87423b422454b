/**
 * Reads scenario files (YAML or JSON) and reports every problem with file, line and path, e.g.
 * `scenarios/flight-booking.yaml:14 steps[2].after: expected a duration like "500ms"`.
 * A broken file yields issues, never an exception: one bad file must not stop the others.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  displayPath,
  formatIssue,
  parseWithSchema,
  readSource,
  type FileIssue,
  type IssueAt,
  type IssuePath,
} from '../lib/yaml-file.js';
import { compileScenario, type ChaosCheck } from './compile.js';
import type { Scenario } from './model.js';
import { ScenarioFile } from './schema.js';
import { checkTemplate, hasTemplate } from './template.js';

export { formatIssue } from '../lib/yaml-file.js';

export type ScenarioIssue = FileIssue;

export interface LoadResult {
  scenarios: Scenario[];
  issues: ScenarioIssue[];
}

/** The scenarios shipped with the simulator. */
export const BUILTIN_SCENARIO_DIR = fileURLToPath(new URL('../../scenarios', import.meta.url));

const SCENARIO_FILE = /\.(ya?ml|json)$/i;
/** Files that sit beside scenarios but are something else: JSON Schemas and agent definitions. */
const NOT_A_SCENARIO = /\.schema\.json$|\.(agent|chaos)\.(ya?ml|json)$/i;
const SCENARIO_ID = /^[A-Za-z0-9][\w.-]*$/;

/** Why `id` cannot name a scenario (a file name without its extension, or an inline `id`), if it cannot. */
export function scenarioIdProblem(id: string): string | undefined {
  return SCENARIO_ID.test(id)
    ? undefined
    : `"${id}" is not a valid scenario id: use letters, digits, "-", "_" and "."`;
}

export function scenarioIdOf(file: string): string {
  return path.basename(file).replace(SCENARIO_FILE, '');
}

/** Scenario files directly inside `dir`, by name. */
export async function listScenarioFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && SCENARIO_FILE.test(e.name) && !NOT_A_SCENARIO.test(e.name))
    .map((e) => path.join(dir, e.name))
    .sort();
}

export interface LoadOptions {
  /** Stands in for a file with issues (a reload keeps the version that last loaded), in its place. */
  previous?: (file: string) => Scenario | undefined;
  /**
   * Checks each scenario's `chaos:` text; without a check, the text is taken as written (and
   * checked when a call meets it).
   */
  checkChaos?: ChaosCheck;
}

/**
 * Loads every scenario in `dirs`, in order. When two files share an id, the one from the earlier
 * directory wins, so a user's `weather.yaml` replaces the built-in one.
 */
export async function loadScenarioDirs(
  dirs: readonly string[],
  options: LoadOptions = {},
): Promise<LoadResult> {
  const { previous } = options;
  const scenarios = new Map<string, Scenario>();
  const issues: ScenarioIssue[] = [];
  for (const dir of dirs) {
    let files: string[];
    try {
      files = await listScenarioFiles(dir);
    } catch (error) {
      issues.push({
        file: displayPath(dir),
        path: '',
        message: `cannot read the directory: ${(error as Error).message}`,
      });
      continue;
    }
    for (const file of files) {
      if (scenarios.has(scenarioIdOf(file))) continue;
      const result = await loadScenarioFile(file, options.checkChaos);
      issues.push(...result.issues);
      const scenario = result.scenario ?? (result.issues.length ? previous?.(displayPath(file)) : undefined);
      if (scenario) scenarios.set(scenario.id, scenario);
    }
  }
  return { scenarios: [...scenarios.values()], issues };
}

export async function loadScenarioFile(
  file: string,
  checkChaos?: ChaosCheck,
): Promise<{ scenario?: Scenario; issues: ScenarioIssue[] }> {
  const id = scenarioIdOf(file);
  const problem = scenarioIdProblem(id);
  if (problem) return { issues: [{ file: displayPath(file), path: '', message: problem }] };
  const source = await readSource(file);
  if ('issue' in source) return { issues: [source.issue] };
  return parseScenario(id, displayPath(file), source.text, checkChaos);
}

/** Parses and validates one scenario's source text. `file` is only used in messages. */
export async function parseScenario(
  id: string,
  file: string,
  text: string,
  checkChaos?: ChaosCheck,
): Promise<{ scenario?: Scenario; issues: ScenarioIssue[] }> {
  const parsed = parseWithSchema(file, text, ScenarioFile);
  if ('issues' in parsed) {
    // The templates are checked too, so that one pass reports every problem of the file.
    const more = parsed.at ? templateProblems(parsed.input, parsed.at) : [];
    const seen = new Set(parsed.issues.map(formatIssue));
    return { issues: [...parsed.issues, ...more.filter((issue) => !seen.has(formatIssue(issue)))] };
  }
  const compiled = await compileScenario(id, file, parsed.value, checkChaos);
  return { scenario: compiled.scenario, issues: compiled.issues.map((i) => parsed.at(i.path, i.message)) };
}

/**
 * The template problems of a file that did not validate, as compiling would report them; a file
 * that does not validate declares its vars only as far as it can be read, so all count as declared.
 */
function templateProblems(input: unknown, at: IssueAt): ScenarioIssue[] {
  const vars = input !== null && typeof input === 'object' ? (input as { vars?: unknown }).vars : undefined;
  const declared = new Set(vars !== null && typeof vars === 'object' ? Object.keys(vars) : []);
  const issues: ScenarioIssue[] = [];
  const walk = (value: unknown, path: IssuePath): void => {
    if (typeof value === 'string') {
      if (hasTemplate(value))
        for (const message of checkTemplate(value, declared).problems) issues.push(at(path, message));
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, [...path, i]));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
    }
  };
  walk(input, []);
  return issues;
}
