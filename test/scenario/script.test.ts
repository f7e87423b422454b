/**
 * What the loader checks in a script with step ids, jumps and repeated questions: every `goto`
 * lands, every way through a turn ends or pauses, and every step can be reached.
 */
import { atLine } from '../helpers/issues.js';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';

const FILE = 'scenarios/loop.yaml';

async function problems(...lines: string[]): Promise<string[]> {
  const text = ['description: x', 'steps:', ...lines].join('\n');
  return (await parseScenario('loop', FILE, text)).issues.map(atLine);
}

describe('step ids and goto', () => {
  it('accepts a loop that comes back to an input step, which pauses it', async () => {
    expect(
      await problems(
        '  - id: ask',
        '    input:',
        '      message: More?',
        '      branches:',
        '        - when: { keywords: [more] }',
        '          steps: [{ status: working, message: Sure. }]',
        '          goto: ask',
        '  - status: completed',
      ),
    ).toEqual([]);
  });

  it('names the known ids when a goto names none of them', async () => {
    expect(
      await problems(
        '  - id: ask',
        '    input:',
        '      branches:',
        '        - when: { text: again }',
        '          goto: aks',
        '  - id: end',
        '    status: completed',
      ),
    ).toEqual([
      `${FILE}:7 steps[0].input.branches[0].goto: no step has the id "aks"; step ids: "ask", "end"`,
    ]);
  });

  it('refuses a step id used twice', async () => {
    expect(
      await problems('  - id: same', '    status: working', '  - id: same', '    status: completed'),
    ).toEqual([`${FILE}:5 steps[1].id: the step id "same" is already used at steps[0]`]);
  });

  it('refuses a branch that does nothing: no steps, no goto, and an input that does not repeat', async () => {
    expect(
      await problems('  - input:', '      branches:', '        - when: { text: x }', '  - status: completed'),
    ).toEqual([
      `${FILE}:5 steps[0].input.branches[0]: a branch needs "steps", a "goto", or "repeat: true" on its input step`,
    ]);
  });

  it('accepts a branch without steps on a repeating input step', async () => {
    expect(
      await problems(
        '  - input:',
        '      repeat: true',
        '      branches:',
        '        - when: { text: again }',
        '  - status: completed',
      ),
    ).toEqual([]);
  });

  it('refuses a loop that never pauses for input', async () => {
    expect(
      await problems(
        '  - input:',
        '      branches:',
        '        - when: { text: spin }',
        '          steps:',
        '            - id: spin',
        '              status: working',
        '            - wait: 1s',
        '          goto: spin',
        '  - status: completed',
      ),
    ).toEqual([
      `${FILE}:9 steps[0].input.branches[0].steps[1]: this goes back to steps[0].input.branches[0].steps[0] without pausing for input: the loop would never end; put an input step in it`,
    ]);
  });

  it('reaches a named step after a terminal status through a goto', async () => {
    expect(
      await problems(
        '  - input:',
        '      branches:',
        '        - when: { text: late }',
        '          goto: late',
        '  - status: completed',
        '  - id: late',
        '    status: failed',
      ),
    ).toEqual([]);
  });

  it('still reports what no way reaches, and where a jump runs out of steps', async () => {
    expect(
      await problems(
        '  - input:',
        '      branches:',
        '        - when: { text: on }',
        '          goto: tail',
        '  - status: completed',
        '  - status: failed',
        '  - id: tail',
        '    status: working',
      ),
    ).toEqual([
      `${FILE}:9 steps[3]: the script ends while the task is "working": end it with a terminal status (completed, failed, canceled, rejected) or an input step`,
      `${FILE}:8 steps[2]: unreachable: the task already ended as "completed" at steps[1]`,
    ]);
  });
});
