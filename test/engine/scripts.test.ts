/**
 * Script features beyond a straight list of steps: questions without a message, artifacts that
 * append from their first chunk, branches that jump or ask again, error answers. Planned from
 * inline YAML, no clock, a fixed seed.
 */
import { describe, expect, it } from 'vitest';
import { planError, planReply } from '../../src/engine/plan.js';
import { taskStreams } from '../../src/lib/random.js';
import {
  artifacts,
  CONTEXT_ID,
  followUp,
  inline,
  NOW,
  states,
  statusText,
  turn,
  userMessage,
} from './helpers.js';

describe('input steps', () => {
  it('pause without a status message when the step has none', async () => {
    const scenario = await inline(`
description: bare question
steps:
  - input: {}
  - status: completed
`);
    const first = turn(scenario, 'start');
    expect(states(first)).toEqual(['input-required']);
    expect(first.entries[0]!.event).toEqual({ kind: 'status', state: 'input-required' });
    expect(states(followUp(scenario, first, 'fine'))).toEqual(['completed']);
  });
});

describe('artifacts', () => {
  it('flag the first chunk append too with append: true, and only the last one lastChunk', async () => {
    const scenario = await inline(`
description: appending
steps:
  - artifact:
      id: out
      append: true
      chunks: ["chunk-1 ", "chunk-2"]
  - status: completed
`);
    expect(
      artifacts(turn(scenario, 'go')).map(({ artifact, append, lastChunk }) => ({
        id: artifact.artifactId,
        text: artifact.parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''),
        append,
        lastChunk,
      })),
    ).toEqual([
      { id: 'out', text: 'chunk-1 ', append: true, lastChunk: false },
      { id: 'out', text: 'chunk-2', append: true, lastChunk: true },
    ]);
  });

  it('send a single-part artifact with append: true as one last chunk that appends', async () => {
    const scenario = await inline(`
description: one appending part
steps:
  - artifact: { id: out, parts: [{ text: more }] }
  - artifact: { id: out, append: true, parts: [{ text: " and more" }] }
  - status: completed
    message: "{{input.text}}"
`);
    const timeline = turn(scenario, 'go');
    expect(artifacts(timeline).map(({ append, lastChunk }) => ({ append, lastChunk }))).toEqual([
      { append: false, lastChunk: true },
      { append: true, lastChunk: true },
    ]);
    expect(statusText(timeline.entries.at(-1)!.event)).toBe('go');
  });
});

/** The TCK agent's multi-turn task: re-asked by messageId prefix, completed or echoed otherwise. */
const tckInput = `
description: asks until told to complete
steps:
  - input:
      repeat: true
      branches:
        - when: { messageId: { prefix: tck-input-required } }
        - when: { messageId: { prefix: tck-complete-task } }
          steps:
            - status: completed
              message: Hello from TCK
  - status: completed
    message: "Unhandled messageId prefix: {{input.messageId}}"
`;

describe('follow-ups matched afresh', () => {
  it('ask the same question again after a branch of a repeating input step, turn after turn', async () => {
    const scenario = await inline(tckInput);
    let timeline = turn(scenario, 'start', 'seed-1', {
      message: userMessage('start', 'tck-input-required-1'),
    });
    for (const n of [2, 3, 4]) {
      expect(timeline.entries.map((e) => e.event)).toEqual([{ kind: 'status', state: 'input-required' }]);
      timeline = followUp(scenario, timeline, 'again', `seed-1/turn-${n}`, {
        message: userMessage('again', `tck-input-required-${n}`),
      });
    }
    const done = followUp(scenario, timeline, 'done', 'seed-1/turn-5', {
      message: userMessage('done', 'tck-complete-task-5'),
    });
    expect(states(done)).toEqual(['completed']);
    expect(statusText(done.entries[0]!.event)).toBe('Hello from TCK');
    expect(done.end).toEqual({ kind: 'finished' });
  });

  it('go on after the input step when no branch matches, repeat or not', async () => {
    const scenario = await inline(tckInput);
    const first = turn(scenario, 'start');
    const other = followUp(scenario, first, 'x', 'seed-1/turn-2', { message: userMessage('x', 'other-7') });
    expect(statusText(other.entries[0]!.event)).toBe('Unhandled messageId prefix: other-7');
  });

  const order = `
description: takes an order line by line
steps:
  - status: working
  - id: ask
    input:
      message: What else?
      branches:
        - when: { keywords: [add] }
          steps:
            - artifact:
                id: order
                append: true
                parts: [{ text: "{{capture \\"add (\\\\w+)\\" 1}};" }]
          goto: ask
        - when: { keywords: [skip] }
          goto: done
        - when: { keywords: [back] }
          steps:
            - input:
                message: Start over?
                branches:
                  - when: { keywords: ["yes"] }
                    goto: ask
            - status: failed
  - status: working
    message: Checking out.
  - id: done
    status: completed
`;

  it('jump back to a named step after a branch, and skip ahead with a goto alone', async () => {
    const scenario = await inline(order);
    const first = turn(scenario, 'order');
    expect(states(first)).toEqual(['working', 'input-required']);
    const second = followUp(scenario, first, 'add tea', 'seed-1/turn-2');
    expect(second.entries.map((e) => e.event.kind)).toEqual(['artifact', 'status']);
    expect(statusText(second.entries[1]!.event)).toBe('What else?');
    const third = followUp(scenario, second, 'add scones', 'seed-1/turn-3');
    expect(artifacts(third).map((a) => [a.artifact.parts, a.append])).toEqual([
      [[{ kind: 'text', text: 'scones;' }], true],
    ]);
    expect(states(followUp(scenario, third, 'skip', 'seed-1/turn-4'))).toEqual(['completed']);
    expect(states(followUp(scenario, third, 'that is all', 'seed-1/turn-4'))).toEqual([
      'working',
      'completed',
    ]);
  });

  it('jump from a nested branch to an outer step', async () => {
    const scenario = await inline(order);
    const nested = followUp(scenario, turn(scenario, 'order'), 'go back', 'seed-1/turn-2');
    expect(statusText(nested.entries[0]!.event)).toBe('Start over?');
    const again = followUp(scenario, nested, 'yes', 'seed-1/turn-3');
    expect(again.entries.map((e) => statusText(e.event))).toEqual(['What else?']);
    expect(states(followUp(scenario, nested, 'no', 'seed-1/turn-3'))).toEqual(['failed']);
  });

  it('plan the same turns for the same seed and answers, loops included', async () => {
    const scenario = await inline(order);
    const play = () => {
      const turns = [turn(scenario, 'order', 'seed-x')];
      for (const [n, text] of ['add tea', 'add jam', 'back', 'yes', 'add milk', 'skip'].entries()) {
        turns.push(followUp(scenario, turns.at(-1)!, text, `seed-x/turn-${n + 2}`));
      }
      return turns;
    };
    const [a, b] = [play(), play()];
    expect(b).toEqual(a);
    expect(a.map(states)).toEqual([
      ['working', 'input-required'],
      ['input-required'],
      ['input-required'],
      ['input-required'],
      ['input-required'],
      ['input-required'],
      ['completed'],
    ]);
  });
});

describe('planError', () => {
  const input = { message: userMessage('go', 'msg-9'), contextId: CONTEXT_ID, nowMs: NOW };

  it('renders the message and draws the delay from the timing stream', async () => {
    const scenario = await inline(`
description: refuses
error: { type: InvalidParamsError, message: "No {{input.messageId}}", after: { min: 1s, max: 2s } }
`);
    const answer = planError({ ...input, scenario, streams: taskStreams('seed-1') });
    expect(answer).toMatchObject({ type: 'InvalidParamsError', message: 'No msg-9' });
    expect(answer.atMs).toBeGreaterThanOrEqual(1000);
    expect(answer.atMs).toBeLessThanOrEqual(2000);
    expect(planError({ ...input, scenario, streams: taskStreams('seed-1') })).toEqual(answer);
  });

  it('leaves the message to the error table when the scenario gives none', async () => {
    const scenario = await inline('description: refuses\nerror: { type: UnsupportedOperationError }');
    expect(planError({ ...input, scenario, streams: taskStreams('seed-1') })).toEqual({
      atMs: 0,
      type: 'UnsupportedOperationError',
    });
    expect(() => turn(scenario, 'go')).toThrow(/answers with an error, not a task/);
  });
});

describe('variants', () => {
  const forecast = `
description: a forecast in two forms
steps:
  - artifact:
      name: Forecast
      variants:
        - mediaType: application/json
          parts: [{ data: { city: Paris, tempC: 21 } }]
        - mediaType: text/plain
          chunks: ["Paris, ", "21 °C"]
  - status: completed
`;

  it('send the first variant without acceptedOutputModes, the first accepted one with them', async () => {
    const scenario = await inline(forecast);
    expect(artifacts(turn(scenario, 'go')).map((a) => a.artifact.parts)).toEqual([
      [{ kind: 'data', data: { city: 'Paris', tempC: 21 } }],
    ]);
    const text = turn(scenario, 'go', 'seed-1', { acceptedOutputModes: ['text/*'] });
    expect(artifacts(text).map((a) => [a.artifact.parts, a.append, a.lastChunk])).toEqual([
      [[{ kind: 'text', text: 'Paris, ' }], false, false],
      [[{ kind: 'text', text: '21 °C' }], true, true],
    ]);
    expect(scenario.variantTypes).toEqual([['application/json', 'text/plain']]);
  });

  it('choose the form of a reply the same way', async () => {
    const scenario = await inline(`
description: a greeting in two forms
reply:
  variants:
    - { mediaType: application/json, message: [{ data: { greeting: hello } }] }
    - { mediaType: text/plain, message: Hello! }
`);
    const reply = (acceptedOutputModes?: string[]) =>
      planReply({
        scenario,
        message: userMessage('hi'),
        contextId: CONTEXT_ID,
        nowMs: NOW,
        streams: taskStreams('seed-1'),
        ...(acceptedOutputModes && { acceptedOutputModes }),
      }).message.parts;
    expect(reply()).toEqual([{ kind: 'data', data: { greeting: 'hello' } }]);
    expect(reply(['text/plain'])).toEqual([{ kind: 'text', text: 'Hello!' }]);
    expect(() => reply(['image/png'])).toThrow(/accept none of application\/json, text\/plain/);
  });
});
