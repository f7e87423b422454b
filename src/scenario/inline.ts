/**
 * Scenarios given in code rather than in files (`createSimulator({ scenarios })`, `sim.use()`): an
 * object holding an `id` and the fields of a scenario file, or the YAML text of one with a
 * top-level `id:` line. Each is checked exactly as a file is, with the same messages; only the
 * `description` a file needs is optional.
 */
import { stringify } from 'yaml';
import type { ChaosCheck } from './compile.js';
import { parseScenario, SCENARIO_ID, type ScenarioIssue } from './load.js';
import type { Scenario } from './model.js';

/**
 * @example { id: 'slow-weather', match: [{ keywords: ['weather'] }], steps: [{ status: 'completed', after: '2s' }] }
 * @example 'id: slow-weather\nmatch:\n  - keywords: [weather]\nsteps:\n  - { status: completed, after: 2s }\n'
 */
export type InlineScenario = string | ({ id: string } & Record<string, unknown>);

const ID_LINE = /^id:[ \t]*(.*?)[ \t]*$/m;

export async function parseInlineScenario(
  source: InlineScenario,
  checkChaos?: ChaosCheck,
): Promise<{ scenario?: Scenario; issues: ScenarioIssue[] }> {
  if (typeof source === 'string') {
    const line = ID_LINE.exec(source);
    const id = line ? unquote(line[1]!) : undefined;
    if (!line || !id) return refuse('inline scenario', 'needs a top-level "id: <name>" line');
    if (!SCENARIO_ID.test(id)) return refuse(`inline scenario "${id}"`, idMessage(id));
    // The id line gives way to a description when there is none (the file format has no `id`),
    // or to nothing: every other line keeps its number in the messages.
    const description = /^description:/m.test(source)
      ? ''
      : `description: ${JSON.stringify(defaultDescription(id))}`;
    const text = `${source.slice(0, line.index)}${description}${source.slice(line.index + line[0].length)}`;
    return parseScenario(id, `inline scenario "${id}"`, text, checkChaos);
  }
  const { id, ...fields } = source;
  if (typeof id !== 'string' || id === '') return refuse('inline scenario', 'needs an "id" (a string)');
  if (!SCENARIO_ID.test(id)) return refuse(`inline scenario "${id}"`, idMessage(id));
  const described = 'description' in fields ? fields : { description: defaultDescription(id), ...fields };
  return parseScenario(id, `inline scenario "${id}"`, stringify(described), checkChaos);
}

function refuse(file: string, message: string): { issues: ScenarioIssue[] } {
  return { issues: [{ file, path: 'id', message }] };
}

/** A description is required of a file; a scenario written in a test rarely needs one. */
const defaultDescription = (id: string) => `Inline scenario ${id}`;

const idMessage = (id: string) => `"${id}" is not a valid scenario id: use letters, digits, "-", "_" and "."`;

function unquote(text: string): string {
  const quoted = /^(['"])(.*)\1$/.exec(text);
  return quoted ? quoted[2]! : text;
}
