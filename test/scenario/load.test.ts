/**
 * Loading scenario files: every problem is reported with file, line and path, never thrown, and one
 * broken file never keeps the others from loading.
 */
import { writeFiles } from '../helpers/files.js';
import { atLine } from '../helpers/issues.js';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BUILTIN_SCENARIO_DIR,
  listScenarioFiles,
  loadScenarioDirs,
  loadScenarioFile,
  parseScenario,
  scenarioIdOf,
  type ScenarioIssue,
} from '../../src/scenario/load.js';
import { END } from '../../src/scenario/model.js';

const FILE = 'scenarios/test.yaml';

/** A YAML document from its lines, so tests can find the line of each one. */
const yaml = (...lines: string[]) => lines.join('\n') + '\n';
/** The 1-based line of the first line of `text` containing `needle`. */
const lineOf = (text: string, needle: string) => {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  expect(index, `"${needle}" is in the text`).toBeGreaterThanOrEqual(0);
  return index + 1;
};
const valid = (description = 'A valid scenario') =>
  yaml(`description: ${description}`, 'steps:', '  - status: completed');

/** The issues of a scenario text that must not compile, formatted as the CLI prints them. */
async function problems(text: string, file = FILE): Promise<string[]> {
  const result = await parseScenario('test', file, text);
  expect(result.scenario).toBeUndefined();
  expect(result.issues.length).toBeGreaterThan(0);
  return result.issues.map(atLine);
}

const DURATION_HINT = 'expected a duration like "500ms", "2s" or a number of milliseconds';

describe('parseScenario', () => {
  it('compiles a valid scenario with its defaults and no issues', async () => {
    const text = yaml(
      'description: Says hello',
      'match:',
      '  - keywords: [hello]',
      'steps:',
      '  - status: working',
      '    after: 1.5s',
      '  - status: completed',
      '    after: { min: 100ms, max: 300ms }',
    );
    const { scenario, issues } = await parseScenario('say-hello', FILE, text);
    expect(issues).toEqual([]);
    expect(scenario).toMatchObject({
      id: 'say-hello',
      file: FILE,
      description: 'Says hello',
      priority: 0,
      fallback: false,
      skill: { id: 'say-hello', name: 'Say hello', tags: ['say-hello'], extended: false },
      cancel: { allowed: true, after: { kind: 'fixed', ms: 0 } },
      usesFaker: false,
    });
    expect(scenario!.match).toHaveLength(1);
    expect(scenario!.script).toEqual({
      kind: 'steps',
      steps: [
        { kind: 'status', state: 'working', after: { kind: 'fixed', ms: 1500 }, next: 1 },
        { kind: 'status', state: 'completed', after: { kind: 'uniform', min: 100, max: 300 }, next: END },
      ],
    });
  });

  describe('durations', () => {
    it('reports a bad step duration as file:LINE steps[N].after', async () => {
      const text = yaml(
        'description: x',
        'steps:',
        '  - status: working',
        '    after: 1s',
        '  - status: working',
        '    after: 5 seconds',
        '  - status: completed',
      );
      expect(await problems(text)).toEqual([
        `${FILE}:${lineOf(text, '5 seconds')} steps[1].after: ${DURATION_HINT}`,
      ]);
    });

    it('points at the key when the bad value sits on a later line', async () => {
      const text = yaml(
        'description: x',
        'steps:',
        '  - status: working',
        '    after:',
        '      soon',
        '  - status: completed',
      );
      expect(await problems(text)).toEqual([
        `${FILE}:${lineOf(text, 'after:')} steps[0].after: ${DURATION_HINT}`,
      ]);
    });

    it('reports a bad duration inside a branch with its full path and line', async () => {
      const text = yaml(
        'description: x',
        'steps:',
        '  - input:',
        '      message: Where to?',
        '      branches:',
        '        - when: { text: stop }',
        '          steps:',
        '            - status: canceled',
        '              after: { min: 10ms, max: 2 minutes }',
        '  - status: completed',
      );
      expect(await problems(text)).toEqual([
        `${FILE}:${lineOf(text, '2 minutes')} steps[0].input.branches[0].steps[0].after.max: ${DURATION_HINT}`,
      ]);
    });

    it('reports a delay whose min is greater than its max', async () => {
      const text = yaml(
        'description: x',
        'steps:',
        '  - status: completed',
        '    after: { min: 2s, max: 1s }',
      );
      expect(await problems(text)).toEqual([
        `${FILE}:${lineOf(text, 'min: 2s')} steps[0].after: "min" (2s) is greater than "max" (1s)`,
      ]);
    });
  });

  it('reports every unknown key with its path and line', async () => {
    const text = yaml('description: x', 'colour: blue', 'steps:', '  - status: completed', '    afterr: 1s');
    expect((await problems(text)).sort()).toEqual(
      [
        `${FILE}:${lineOf(text, 'colour')} colour: unknown key "colour"`,
        `${FILE}:${lineOf(text, 'afterr')} steps[0].afterr: unknown key "afterr" (did you mean "after"?)`,
      ].sort(),
    );
  });

  it.each([
    ['match:\n  - text: /(unclosed/', 'match[0].text'],
    ['match:\n  - messageId: { regex: "[a-" }', 'match[0].messageId.regex'],
  ])('reports an invalid regular expression in %j', async (rule, where) => {
    const text = yaml('description: x', rule, 'steps:', '  - status: completed');
    const [issue, ...rest] = await problems(text);
    expect(rest).toEqual([]);
    expect(issue).toMatch(`${FILE}:3 ${where}: invalid regular expression: `);
  });

  it('reports a faker call that names no faker method', async () => {
    const text = yaml(
      'description: x',
      'steps:',
      '  - status: completed',
      '    message: "Off to {{faker.location.nowhere}}"',
    );
    expect(await problems(text)).toEqual([
      `${FILE}:${lineOf(text, 'message:')} steps[0].message: "faker.location.nowhere" is not a faker method (see https://fakerjs.dev/api/)`,
    ]);
  });

  it('accepts a real faker method and marks the scenario as using faker', async () => {
    const text = yaml(
      'description: x',
      'steps:',
      '  - status: completed',
      '    message: "{{faker.location.city}}"',
    );
    const { scenario, issues } = await parseScenario('test', FILE, text);
    expect(issues).toEqual([]);
    expect(scenario!.usesFaker).toBe(true);
  });

  it('reports a template syntax error where the template is', async () => {
    const text = yaml('description: x', 'steps:', '  - status: completed', '    message: "{{shout hi}}"');
    const [issue] = await problems(text);
    expect(issue).toMatch(
      `${FILE}:${lineOf(text, 'shout')} steps[0].message: template error: unknown template name "shout"`,
    );
  });

  it('reports reads of undeclared vars, and of vars declared only further down', async () => {
    const text = yaml(
      'description: x',
      'vars:',
      '  first: "{{vars.second}}"',
      '  second: { city: Oslo }',
      '  third: "{{vars.second.city}}"',
      'steps:',
      '  - status: completed',
      '    message: "{{vars.missing}}"',
    );
    expect(await problems(text)).toEqual([
      `${FILE}:${lineOf(text, 'first:')} vars.first: template reads "vars.second", which is not declared (above it) in "vars"`,
      `${FILE}:${lineOf(text, 'message:')} steps[0].message: template reads "vars.missing", which is not declared (above it) in "vars"`,
    ]);
  });

  describe('script endings', () => {
    it('reports the first step after a terminal status as unreachable', async () => {
      const text = yaml(
        'description: x',
        'steps:',
        '  - status: failed',
        '  - status: working',
        '  - status: completed',
      );
      expect(await problems(text)).toEqual([
        `${FILE}:${lineOf(text, 'working')} steps[1]: unreachable: the task already ended as "failed" at steps[0]`,
      ]);
    });

    it('reports unreachable steps inside a branch', async () => {
      const text = yaml(
        'description: x',
        'steps:',
        '  - input:',
        '      message: Where to?',
        '      branches:',
        '        - when: { text: stop }',
        '          steps:',
        '            - status: canceled',
        '            - wait: 1s',
        '  - status: completed',
      );
      expect(await problems(text)).toEqual([
        `${FILE}:${lineOf(text, 'wait')} steps[0].input.branches[0].steps[1]: unreachable: the task already ended as "canceled" at steps[0].input.branches[0].steps[0]`,
      ]);
    });

    it('accepts a branch that ends the task and a main line that continues after the input', async () => {
      const text = yaml(
        'description: x',
        'steps:',
        '  - input:',
        '      message: Where to?',
        '      branches:',
        '        - when: { text: stop }',
        '          steps:',
        '            - status: canceled',
        '  - status: working',
        '  - status: completed',
      );
      expect((await parseScenario('test', FILE, text)).issues).toEqual([]);
    });

    it('reports a script that ends while the task is still working', async () => {
      const text = yaml('description: x', 'steps:', '  - status: working');
      const [issue] = await problems(text);
      expect(issue).toMatch(`${FILE}:3 steps[0]: the script ends while the task is "working"`);
    });

    it('reports an input step with nothing after it', async () => {
      const text = yaml('description: x', 'steps:', '  - status: working', '  - status: input-required');
      expect(await problems(text)).toEqual([
        `${FILE}:4 steps[1]: nothing follows this input step: add the steps that run once the user answers`,
      ]);
    });
  });

  it('reports a scenario with both steps and reply', async () => {
    const text = yaml('description: x', 'reply: { message: hi }', 'steps:', '  - status: completed');
    expect(await problems(text)).toEqual([
      `${FILE}:1: a scenario needs exactly one of "steps", "reply" or "error"`,
    ]);
  });

  it('compiles an error answer, its message a template', async () => {
    const text = yaml(
      'description: x',
      'error:',
      '  type: InvalidParamsError',
      '  message: "No {{input.text}}"',
    );
    const { scenario, issues } = await parseScenario('refuse', FILE, text);
    expect(issues).toEqual([]);
    expect(scenario!.script).toMatchObject({ kind: 'error', type: 'InvalidParamsError', after: { ms: 0 } });
  });

  it.each([
    ['InvalidParams', '"InvalidParams" is not an A2A error type; did you mean "InvalidParamsError"?'],
    [
      'UnsuportedOperationError',
      '"UnsuportedOperationError" is not an A2A error type; did you mean "UnsupportedOperationError"?',
    ],
    ['Nope', '"Nope" is not an A2A error type'],
  ])('refuses the error type %s, with a guess when it is close to one', async (type, message) => {
    const [issue, ...rest] = await problems(yaml('description: x', 'error:', `  type: ${type}`));
    expect(rest).toEqual([]);
    expect(issue).toContain(`${FILE}:3 error.type: ${message}`);
    if (type === 'Nope') expect(issue).not.toContain('did you mean');
  });

  it('reports YAML syntax errors and duplicate keys with their line, without throwing', async () => {
    const badIndent = yaml('description: x', 'steps:', '  - status: working', '   after: 1s');
    expect(await problems(badIndent)).toEqual([
      expect.stringMatching(/^scenarios\/test\.yaml:4: syntax error: /),
    ]);
    const duplicate = yaml('description: x', 'description: y', 'steps:', '  - status: completed');
    expect(await problems(duplicate)).toEqual([`${FILE}:2: syntax error: Map keys must be unique`]);
  });

  it('reports a document that is not a mapping', async () => {
    expect(await problems('just some text\n')).toEqual([expect.stringMatching(/^scenarios\/test\.yaml:1: /)]);
  });

  // The loader promises that, when no alternative of a union is selected by its key, the message lists
  // the keys that would select one, rather than blaming one alternative's key.
  it('lists the step kinds when a step has none of their keys', async () => {
    const text = yaml('description: x', 'steps:', '  - stat: completed', '  - status: completed');
    expect(await problems(text)).toContainEqual(
      expect.stringContaining(
        `${FILE}:3 steps[0]: expected an object with one of the keys "status", "artifact", "wait", "input"`,
      ),
    );
  });

  it('lists the part kinds when a part has none of their keys', async () => {
    const text = yaml('description: x', 'steps:', '  - status: completed', '    message:', '      - txt: hi');
    expect(await problems(text)).toContainEqual(
      expect.stringContaining(
        `${FILE}:5 steps[0].message[0]: expected an object with one of the keys "text", "data", "raw", "url"`,
      ),
    );
  });
});

describe('scenario files', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'a2a-sim-load-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('loadScenarioFile', () => {
    it('names the scenario after its file', async () => {
      await writeFiles(dir, { 'say-hello.yaml': valid() });
      const { scenario, issues } = await loadScenarioFile(path.join(dir, 'say-hello.yaml'));
      expect(issues).toEqual([]);
      expect(scenario!.id).toBe('say-hello');
    });

    it('accepts JSON files', async () => {
      const json = JSON.stringify(
        { description: 'From JSON', steps: [{ status: 'working', after: '1s' }, { status: 'completed' }] },
        null,
        2,
      );
      await writeFiles(dir, { 'from-json.json': json });
      const { scenario, issues } = await loadScenarioFile(path.join(dir, 'from-json.json'));
      expect(issues).toEqual([]);
      expect(scenario).toMatchObject({ id: 'from-json', description: 'From JSON' });
    });

    it('reports a bad duration in a JSON file with its line', async () => {
      const json = JSON.stringify(
        { description: 'x', steps: [{ status: 'working' }, { status: 'completed', after: 'later' }] },
        null,
        2,
      );
      const file = path.join(dir, 'bad.json');
      await writeFiles(dir, { 'bad.json': json });
      const { scenario, issues } = await loadScenarioFile(file);
      expect(scenario).toBeUndefined();
      expect(issues.map(atLine)).toEqual([
        `${file}:${lineOf(json, '"later"')} steps[1].after: ${DURATION_HINT}`,
      ]);
    });

    it('reports the file, line and path of a bad duration in a YAML file', async () => {
      const text = yaml(
        'description: x',
        'steps:',
        '  - status: working',
        '  - status: completed',
        '    after: 3 days',
      );
      const file = path.join(dir, 'slow.yaml');
      await writeFiles(dir, { 'slow.yaml': text });
      const { issues } = await loadScenarioFile(file);
      expect(issues).toEqual<ScenarioIssue[]>([
        { file, line: lineOf(text, '3 days'), column: 5, path: 'steps[1].after', message: DURATION_HINT },
      ]);
      expect(atLine(issues[0]!)).toBe(`${file}:5 steps[1].after: ${DURATION_HINT}`);
    });

    it('reports a file name that is not a valid scenario id', async () => {
      await writeFiles(dir, { '-draft.yaml': valid() });
      const { scenario, issues } = await loadScenarioFile(path.join(dir, '-draft.yaml'));
      expect(scenario).toBeUndefined();
      expect(issues).toEqual([
        expect.objectContaining({ message: expect.stringContaining('not a valid scenario id') }),
      ]);
    });

    it('reports a file it cannot read instead of throwing', async () => {
      const { scenario, issues } = await loadScenarioFile(path.join(dir, 'missing.yaml'));
      expect(scenario).toBeUndefined();
      expect(issues).toEqual([
        expect.objectContaining({ message: expect.stringContaining('cannot read the file') }),
      ]);
    });
  });

  describe('loadScenarioDirs', () => {
    it('loads directories in the order given, each in file-name order, skipping non-scenario files', async () => {
      const first = await writeFiles(path.join(dir, 'first'), {
        'zeta.yaml': valid(),
        'notes.txt': 'not a scenario',
      });
      const second = await writeFiles(path.join(dir, 'second'), {
        'beta.yml': valid(),
        'alpha.json': JSON.stringify({ description: 'x', steps: [{ status: 'completed' }] }),
        'scenario.schema.json': '{}',
        'helper.agent.yaml': 'name: x',
        'helper.agent.json': '{}',
      });
      const { scenarios, issues } = await loadScenarioDirs([first, second]);
      expect(issues).toEqual([]);
      expect(scenarios.map((s) => s.id)).toEqual(['zeta', 'alpha', 'beta']);
    });

    it('keeps the scenario from the earlier directory when two share an id', async () => {
      const user = await writeFiles(path.join(dir, 'user'), { 'weather.yaml': valid('User weather') });
      const builtin = await writeFiles(path.join(dir, 'builtin'), {
        'weather.yaml': valid('Built-in weather'),
        'other.yaml': valid('Other'),
      });
      const { scenarios, issues } = await loadScenarioDirs([user, builtin]);
      expect(issues).toEqual([]);
      expect(scenarios.map((s) => [s.id, s.description])).toEqual([
        ['weather', 'User weather'],
        ['other', 'Other'],
      ]);
    });

    it('reports a broken file and still loads the others', async () => {
      const broken = yaml('description: x', 'steps:', '  - status: working', '    after: whenever');
      await writeFiles(dir, { 'a-good.yaml': valid(), 'b-broken.yaml': broken, 'c-good.yaml': valid() });
      const { scenarios, issues } = await loadScenarioDirs([dir]);
      expect(scenarios.map((s) => s.id)).toEqual(['a-good', 'c-good']);
      expect(issues).toEqual([
        {
          file: path.join(dir, 'b-broken.yaml'),
          line: lineOf(broken, 'whenever'),
          column: 5,
          path: 'steps[0].after',
          message: DURATION_HINT,
        },
      ]);
    });

    it('reports a directory it cannot read and still loads the others', async () => {
      const missing = path.join(dir, 'does-not-exist');
      const present = await writeFiles(path.join(dir, 'present'), { 'ok.yaml': valid() });
      const { scenarios, issues } = await loadScenarioDirs([missing, present]);
      expect(scenarios.map((s) => s.id)).toEqual(['ok']);
      expect(issues).toEqual([
        expect.objectContaining({
          file: missing,
          message: expect.stringContaining('cannot read the directory'),
        }),
      ]);
    });
  });
});

describe('built-in scenarios', () => {
  it('finds the shipped scenario files', async () => {
    const files = await listScenarioFiles(BUILTIN_SCENARIO_DIR);
    const names = (await readdir(BUILTIN_SCENARIO_DIR)).filter(
      (name) => /\.(ya?ml|json)$/.test(name) && !/\.(schema\.json|(agent|chaos)\.(ya?ml|json))$/.test(name),
    );
    expect(files.map((f) => path.basename(f)).sort()).toEqual(names.sort());
    expect(files.length).toBeGreaterThan(0);
  });

  it('all load with zero issues', async () => {
    const { scenarios, issues } = await loadScenarioDirs([BUILTIN_SCENARIO_DIR]);
    expect(issues.map(atLine)).toEqual([]);
    const files = await listScenarioFiles(BUILTIN_SCENARIO_DIR);
    expect(scenarios.map((s) => s.id)).toEqual(files.map(scenarioIdOf));
  });
});
