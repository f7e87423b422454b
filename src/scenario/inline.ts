/**
 * Scenarios given in code rather than in files (`createSimulator({ scenarios })`, `sim.use()`): an
 * object holding an `id` and the fields of a scenario file, or the YAML text of one with a
 * top-level `id:` line. Each is checked exactly as a file is, with the same messages; only the
 * `description` a file needs is optional.
 */
import { stringify } from 'yaml';
import type { ChaosCheck } from './compile.js';
import { parseScenario, scenarioIdProblem, type ScenarioIssue } from './load.js';
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
  const read = typeof source === 'string' ? fromText(source) : fromObject(source);
  if ('problem' in read) return { issues: [{ file: 'inline scenario', path: 'id', message: read.problem }] };
  const file = `inline scenario "${read.id}"`;
  const problem = scenarioIdProblem(read.id);
  if (problem) return { issues: [{ file, path: 'id', message: problem }] };
  return parseScenario(read.id, file, read.text, checkChaos);
}

type Read = { id: string; text: string } | { problem: string };

/**
 * The id line gives way to a description when there is none (the file format has no `id`), or to
 * nothing: every other line keeps its number in the messages.
 */
function fromText(source: string): Read {
  const line = ID_LINE.exec(source);
  const id = line ? unquote(line[1]!) : '';
  if (!line || !id) return { problem: 'needs a top-level "id: <name>" line' };
  const description = /^description:/m.test(source)
    ? ''
    : `description: ${JSON.stringify(defaultDescription(id))}`;
  return {
    id,
    text: `${source.slice(0, line.index)}${description}${source.slice(line.index + line[0].length)}`,
  };
}

function fromObject({ id, ...fields }: { id: unknown } & Record<string, unknown>): Read {
  if (typeof id !== 'string' || id === '') return { problem: 'needs an "id" (a string)' };
  return {
    id,
    text: stringify('description' in fields ? fields : { description: defaultDescription(id), ...fields }),
  };
}

/** A description is required of a file; a scenario written in a test rarely needs one. */
const defaultDescription = (id: string) => `Inline scenario ${id}`;

function unquote(text: string): string {
  const quoted = /^(['"])(.*)\1$/.exec(text);
  return quoted ? quoted[2]! : text;
}
