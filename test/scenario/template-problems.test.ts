/**
 * One pass reports every problem of a scenario file: the schema's, and those of its templates, a
 * bad expression no longer hiding the next one in the same string.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { atLine } from '../helpers/issues.js';

const problems = async (text: string) => (await parseScenario('t', 't.yaml', text)).issues.map(atLine);

const STRING = `'{{capture "(" 1}} {{faker.person.nme}} {{vars.who}}'`;
const AT = 't.yaml:5 steps[0].artifact.parts[0].text:';
const CAPTURE = expect.stringMatching(
  /^t\.yaml:5 steps\[0\]\.artifact\.parts\[0\]\.text: template error: .*capture/,
);
const FAKER = `${AT} "faker.person.nme" is not a faker method (see https://fakerjs.dev/api/)`;

describe('problems in one pass', () => {
  it('reports every bad expression of one string, and the vars it reads that are not declared', async () => {
    const text = `description: x\nsteps:\n  - artifact:\n      parts:\n        - text: ${STRING}\n  - status: completed\n`;
    const found = await problems(text);
    expect(found).toHaveLength(3);
    expect(found).toEqual(
      expect.arrayContaining([
        CAPTURE,
        FAKER,
        `${AT} template reads "vars.who", which is not declared (above it) in "vars"`,
      ]),
    );
  });

  it('reports the template problems alongside the schema errors, not after they are fixed', async () => {
    const text = `description: x\nsteps:\n  - artifact:\n      parts:\n        - text: ${STRING}\n  - status: completed\n    aftr: 1s\n`;
    expect(await problems(text)).toEqual([
      't.yaml:7 steps[1].aftr: unknown key "aftr" (did you mean "after"?)',
      CAPTURE,
      FAKER,
      `${AT} template reads "vars.who", which is not declared (above it) in "vars"`,
    ]);
  });
});
