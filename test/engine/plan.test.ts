/**
 * The pure planning engine: scenario + user message + seeded streams → a timeline of plain data.
 * No clock, no store: every test here calls planTurn / planReply / sampleDelay directly.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  planReply,
  planTurn,
  startTurn,
  type PlannedEvent,
  type Timeline,
  type TimelineEntry,
  type TurnInput,
  textOf,
} from '../../src/engine/plan.js';
import { loadFaker } from '../../src/lib/fake-data.js';
import { Random, taskStreams } from '../../src/lib/random.js';
import { BUILTIN_SCENARIO_DIR, formatIssue, loadScenarioDirs } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/model.js';
import { sampleDelay, type DelaySpec } from '../../src/lib/delay.js';
import {
  artifacts,
  CONTEXT_ID,
  expectNonDecreasing,
  followUp,
  inline,
  kinds,
  NOW,
  states,
  statusText,
  TASK_ID,
  textOfParts,
  turn,
  userMessage,
} from './helpers.js';

const builtins = new Map<string, Scenario>();

beforeAll(async () => {
  const { scenarios, issues } = await loadScenarioDirs([BUILTIN_SCENARIO_DIR]);
  expect(issues.map(formatIssue)).toEqual([]);
  for (const scenario of scenarios) builtins.set(scenario.id, scenario);
  // Faker is loaded lazily by the service; the engine expects it loaded before planning.
  await loadFaker();
});

function builtin(id: string): Scenario {
  const scenario = builtins.get(id);
  if (!scenario) throw new Error(`built-in scenario "${id}" is not loaded`);
  return scenario;
}

const SEEDS = Array.from({ length: 12 }, (_, i) => `seed-${i}`);

describe('planTurn on the built-in scenarios', () => {
  it('weather: working, one artifact, completed, finished, in time order', () => {
    const timeline = turn(builtin('weather'), 'What is the weather today?');
    expect(kinds(timeline)).toEqual(['working', 'artifact', 'completed']);
    expect(timeline.end).toEqual({ kind: 'finished' });
    expectNonDecreasing(timeline.entries);
  });

  it('weather: each delay is drawn within its {min, max} for every seed', () => {
    for (const seed of SEEDS) {
      const [working, artifact, completed] = turn(builtin('weather'), 'weather?', seed).entries;
      // working after {100ms, 300ms}; artifact after {200ms, 700ms}; completed right after it.
      expect(working!.atMs).toBeGreaterThanOrEqual(100);
      expect(working!.atMs).toBeLessThanOrEqual(300);
      expect(artifact!.atMs - working!.atMs).toBeGreaterThanOrEqual(200);
      expect(artifact!.atMs - working!.atMs).toBeLessThanOrEqual(700);
      expect(completed!.atMs).toBe(artifact!.atMs);
    }
  });

  it('weather: the same seed and input give a deep-equal timeline', () => {
    const a = turn(builtin('weather'), 'What is the weather today?', 'same');
    const b = turn(builtin('weather'), 'What is the weather today?', 'same');
    expect(b).toEqual(a);
  });

  it('weather: a different seed changes the artifact id, and timings vary across seeds', () => {
    const a = turn(builtin('weather'), 'What is the weather today?', 'seed-a');
    const b = turn(builtin('weather'), 'What is the weather today?', 'seed-b');
    expect(artifacts(a)[0]!.artifact.artifactId).not.toBe(artifacts(b)[0]!.artifact.artifactId);

    const timings = new Set(
      SEEDS.map((seed) => JSON.stringify(turn(builtin('weather'), 'w', seed).entries.map((e) => e.atMs))),
    );
    expect(timings.size).toBeGreaterThan(1);
    const reports = new Set(
      SEEDS.map((seed) => textOfParts(artifacts(turn(builtin('weather'), 'w', seed))[0]!.artifact.parts)),
    );
    expect(reports.size).toBeGreaterThan(1);
  });

  it('weather: a single-part artifact is one chunk: append false, lastChunk true', () => {
    const [chunk] = artifacts(turn(builtin('weather'), 'weather?'));
    expect(chunk).toMatchObject({ append: false, lastChunk: true });
    expect(chunk!.artifact.name).toBe('Weather Report');
    expect(textOfParts(chunk!.artifact.parts)).toMatch(/^Today will be .+ with a high of \d+°F$/);
  });

  it('slow-cancel: streams 14 chunks 2 s apart with append / lastChunk set per position', () => {
    const timeline = turn(builtin('slow-cancel'), 'Write a long report on climate change');
    expectNonDecreasing(timeline.entries);
    expect(timeline.end).toEqual({ kind: 'finished' });
    expect(states(timeline)).toEqual(['working', 'completed']);

    const chunks = timeline.entries.filter((e) => e.event.kind === 'artifact');
    expect(chunks).toHaveLength(14);
    chunks.forEach((entry, i) => {
      const event = entry.event as Extract<PlannedEvent, { kind: 'artifact' }>;
      expect(event.append, `chunk ${i} append`).toBe(i > 0);
      expect(event.lastChunk, `chunk ${i} lastChunk`).toBe(i === chunks.length - 1);
      expect(entry.atMs).toBe(300 + i * 2000);
    });
    const ids = new Set(
      chunks.map((e) => (e.event as Extract<PlannedEvent, { kind: 'artifact' }>).artifact.artifactId),
    );
    expect(ids.size).toBe(1);
    // completed: after 1s, once the last chunk is out.
    expect(timeline.entries.at(-1)!.atMs).toBe(chunks.at(-1)!.atMs + 1000);
  });

  it('slow-cancel: fixed delays do not depend on the seed, generated ids do', () => {
    const a = turn(builtin('slow-cancel'), 'report', 'seed-a');
    const b = turn(builtin('slow-cancel'), 'report', 'seed-b');
    expect(b.entries.map((e) => e.atMs)).toEqual(a.entries.map((e) => e.atMs));
    expect(artifacts(b)[0]!.artifact.artifactId).not.toBe(artifacts(a)[0]!.artifact.artifactId);
  });

  it('flight-booking: the first turn pauses in input-required with the branches to try', () => {
    const timeline = turn(builtin('flight-booking'), 'Book me a flight');
    expect(states(timeline)).toEqual(['working', 'input-required']);
    expect(timeline.entries.map((e) => e.atMs)).toEqual([150, 450]);
    expect(timeline.end.kind).toBe('paused');
    if (timeline.end.kind !== 'paused') return;
    const { script } = builtin('flight-booking');
    const question = script.kind === 'steps' ? script.steps[timeline.end.pause.step] : undefined;
    expect(question).toMatchObject({ kind: 'input', state: 'input-required' });
    expect(question?.kind === 'input' && question.branches).toHaveLength(1);

    const asked = timeline.entries[1]!.event;
    expect(statusText(asked)).toBe('I need more details. Where would you like to fly from and to?');
    expect(asked.kind === 'status' && asked.message).toMatchObject({
      role: 'agent',
      taskId: TASK_ID,
      contextId: CONTEXT_ID,
    });
  });

  it('flight-booking: a route answer continues the script and renders the captured cities', () => {
    const scenario = builtin('flight-booking');
    const first = turn(scenario, 'Book me a flight');
    const second = followUp(scenario, first, 'From Lisbon to Oslo, please');
    expect(kinds(second)).toEqual(['working', 'artifact', 'completed']);
    expect(second.end).toEqual({ kind: 'finished' });
    expectNonDecreasing(second.entries);
    expect(statusText(second.entries[0]!.event)).toBe('Searching flights from Lisbon to Oslo...');
    // Artifact after {600ms, 1400ms}, following working at 150 ms.
    const artifactAt = second.entries[1]!.atMs - second.entries[0]!.atMs;
    expect(artifactAt).toBeGreaterThanOrEqual(600);
    expect(artifactAt).toBeLessThanOrEqual(1400);

    const [itinerary] = artifacts(second);
    expect(textOfParts(itinerary!.artifact.parts)).toContain('Found 2 flights from Lisbon to Oslo.');
    const data = itinerary!.artifact.parts.find((p) => p.kind === 'data');
    expect(data).toMatchObject({
      kind: 'data',
      data: { from: 'Lisbon', to: 'Oslo' },
      mediaType: 'application/json',
    });
  });

  it('flight-booking: an answer matching the cancel branch ends the task as canceled', () => {
    const scenario = builtin('flight-booking');
    const second = followUp(scenario, turn(scenario, 'Book me a flight'), 'Never mind, stop');
    expect(kinds(second)).toEqual(['canceled']);
    expect(second.entries[0]!.atMs).toBe(200);
    expect(statusText(second.entries[0]!.event)).toBe('No problem, I have stopped the booking.');
    expect(second.end).toEqual({ kind: 'finished' });
  });

  it('flight-booking: same seeds and inputs give identical turns; the text falls back to defaults', () => {
    const scenario = builtin('flight-booking');
    const plan = () => {
      const first = turn(scenario, 'Book me a flight', 'seed-x');
      return [first, followUp(scenario, first, 'somewhere nice', 'seed-x/turn-2')];
    };
    const [a, b] = [plan(), plan()];
    expect(b).toEqual(a);
    expect(statusText(a[1]!.entries[0]!.event)).toBe('Searching flights from San Francisco to New York...');
  });

  it('planning the same follow-up twice from one pause point gives the same turn (the pause is not consumed)', () => {
    const scenario = builtin('flight-booking');
    const first = turn(scenario, 'Book me a flight');
    const a = followUp(scenario, first, 'From Rome to Paris');
    const b = followUp(scenario, first, 'From Rome to Paris');
    expect(b).toEqual(a);
    expect(kinds(a)).toEqual(['working', 'artifact', 'completed']);
  });

  it('auth-required: pauses in auth-required, then finishes on the follow-up', () => {
    const scenario = builtin('auth-required');
    const first = turn(scenario, 'Check my calendar');
    expect(states(first)).toEqual(['working', 'auth-required']);
    expect(first.end.kind).toBe('paused');
    const second = followUp(scenario, first, 'signed in');
    expect(kinds(second)).toEqual(['working', 'artifact', 'completed']);
    expectNonDecreasing(second.entries);
  });

  it('refuses to plan a turn for a reply scenario', () => {
    expect(() => turn(builtin('greeting'), 'Hello')).toThrow(/replies with a message/);
  });
});

describe('planTurn on inline scenarios', () => {
  it('a wait step moves time forward without emitting an event', async () => {
    const scenario = await inline(`
description: waits
steps:
  - status: working
    after: 100ms
  - wait: 1s
  - status: completed
    after: 50ms
`);
    const timeline = turn(scenario, 'go');
    expect(timeline.entries.map((e) => [e.atMs, (e.event as { state: string }).state])).toEqual([
      [100, 'working'],
      [1150, 'completed'],
    ]);
  });

  it('a status step into input-required pauses like an input step, and the rest runs on the follow-up', async () => {
    const scenario = await inline(`
description: plain pause
steps:
  - status: input-required
    message: Which colour?
  - status: completed
    message: "You chose {{input.text}}."
`);
    const first = turn(scenario, 'start');
    expect(states(first)).toEqual(['input-required']);
    expect(first.end.kind).toBe('paused');
    const second = followUp(scenario, first, 'blue');
    expect(statusText(second.entries[0]!.event)).toBe('You chose blue.');
    expect(second.end).toEqual({ kind: 'finished' });
  });

  const branching = `
description: branching
steps:
  - status: working
  - input:
      message: Shall I add extras?
      branches:
        - when: { keywords: ["yes"] }
          steps:
            - status: working
              message: Adding extras.
              after: 10ms
        - when: { metadata: { approved: true } }
          steps:
            - status: working
              message: Approved by metadata.
  - status: completed
    message: Done.
    after: 20ms
`;

  it('a matching branch runs first, then the script continues after the input step', async () => {
    const scenario = await inline(branching);
    const second = followUp(scenario, turn(scenario, 'order'), 'Yes please');
    expect(second.entries.map((e) => [e.atMs, statusText(e.event)])).toEqual([
      [10, 'Adding extras.'],
      [30, 'Done.'],
    ]);
  });

  it('no matching branch continues directly after the input step', async () => {
    const scenario = await inline(branching);
    const second = followUp(scenario, turn(scenario, 'order'), 'no thanks');
    expect(second.entries.map((e) => statusText(e.event))).toEqual(['Done.']);
  });

  it('branches can match on request metadata', async () => {
    const scenario = await inline(branching);
    const first = turn(scenario, 'order');
    const second = followUp(scenario, first, 'whatever', 'seed-1/turn-2', { metadata: { approved: true } });
    expect(second.entries.map((e) => statusText(e.event))).toEqual(['Approved by metadata.', 'Done.']);
  });

  it('an input step inside a branch pauses again and resumes with the outer script afterwards', async () => {
    const scenario = await inline(`
description: nested
steps:
  - input:
      message: First question?
      branches:
        - when: { keywords: [more] }
          steps:
            - input: { message: Second question? }
            - status: working
              message: After the second question.
  - status: completed
    message: Outer end.
`);
    const first = turn(scenario, 'start');
    expect(statusText(first.entries[0]!.event)).toBe('First question?');
    const second = followUp(scenario, first, 'tell me more');
    expect(states(second)).toEqual(['input-required']);
    expect(statusText(second.entries[0]!.event)).toBe('Second question?');
    const third = followUp(scenario, second, 'fine', 'seed-1/turn-3');
    expect(third.entries.map((e) => statusText(e.event))).toEqual([
      'After the second question.',
      'Outer end.',
    ]);
    expect(third.end).toEqual({ kind: 'finished' });
  });

  it('renders artifact ids, names and parts from templates; artifacts without an id get distinct seeded ids', async () => {
    const scenario = await inline(`
description: templates
steps:
  - artifact:
      id: "report-{{task.id}}"
      name: "Report for {{context.id}}"
      parts:
        - text: "You said {{input.text}} at {{now}} on {{today}}"
        - data: { roll: "{{int 1 6}}", label: "n={{int 1 6}}" }
  - artifact:
      parts: [{ text: one }]
  - artifact:
      parts: [{ text: two }]
  - status: completed
`);
    const [first, second, third] = artifacts(turn(scenario, 'hello there'));
    expect(first!.artifact.artifactId).toBe(`report-${TASK_ID}`);
    expect(first!.artifact.name).toBe(`Report for ${CONTEXT_ID}`);
    expect(textOfParts(first!.artifact.parts)).toBe(
      'You said hello there at 2026-01-01T12:00:00.000Z on 2026-01-01',
    );
    const data = first!.artifact.parts[1]!;
    expect(data.kind).toBe('data');
    if (data.kind !== 'data') return;
    const { roll, label } = data.data as { roll: unknown; label: unknown };
    // A template that is exactly one expression keeps its type; mixed text stays a string.
    expect(typeof roll).toBe('number');
    expect(roll).toBeGreaterThanOrEqual(1);
    expect(roll).toBeLessThanOrEqual(6);
    expect(label).toMatch(/^n=[1-6]$/);

    expect(second!.artifact.artifactId).not.toBe(third!.artifact.artifactId);
    expect(second!.artifact.artifactId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('a chunked artifact spaced by a drawn `every` keeps one id and flags only the last chunk', async () => {
    const scenario = await inline(`
description: chunks
steps:
  - artifact:
      id: doc
      every: { min: 100ms, max: 200ms }
      chunks: ["a", "b", "c"]
    after: 50ms
  - status: completed
`);
    for (const seed of SEEDS) {
      const timeline = turn(scenario, 'go', seed);
      const chunks = timeline.entries.filter((e) => e.event.kind === 'artifact');
      expect(chunks.map((e) => e.event)).toEqual([
        {
          kind: 'artifact',
          artifact: { artifactId: 'doc', parts: [{ kind: 'text', text: 'a' }] },
          append: false,
          lastChunk: false,
        },
        {
          kind: 'artifact',
          artifact: { artifactId: 'doc', parts: [{ kind: 'text', text: 'b' }] },
          append: true,
          lastChunk: false,
        },
        {
          kind: 'artifact',
          artifact: { artifactId: 'doc', parts: [{ kind: 'text', text: 'c' }] },
          append: true,
          lastChunk: true,
        },
      ]);
      expect(chunks[0]!.atMs).toBe(50);
      for (const i of [1, 2]) {
        const gap = chunks[i]!.atMs - chunks[i - 1]!.atMs;
        expect(gap).toBeGreaterThanOrEqual(100);
        expect(gap).toBeLessThanOrEqual(200);
      }
    }
  });

  it('vars are rendered once per turn, so every use within a turn agrees', async () => {
    const scenario = await inline(`
description: vars
vars:
  n: "{{int 1 1000000}}"
  label: "number {{vars.n}}"
steps:
  - status: working
    message: "{{vars.label}}"
  - status: completed
    message: "still {{vars.n}}"
`);
    const [working, completed] = turn(scenario, 'go').entries;
    const n = /^number (\d+)$/.exec(statusText(working!.event)!)![1];
    expect(statusText(completed!.event)).toBe(`still ${n}`);
  });

  it('drawing more content does not shift timings: the streams are independent', async () => {
    const source = (text: string) => `
description: independence
steps:
  - status: working
    message: '${text}'
    after: { min: 10ms, max: 5s }
  - status: completed
    after: { mean: 1s }
`;
    const plain = await inline(source('plain'));
    const random = await inline(source('{{int 1 9}} {{uuid}} {{pick "a" "b"}} {{float 0 1}}'));
    for (const seed of SEEDS) {
      expect(turn(random, 'go', seed).entries.map((e) => e.atMs)).toEqual(
        turn(plain, 'go', seed).entries.map((e) => e.atMs),
      );
    }
  });
});

describe('startTurn: planning an entry at a time', () => {
  it('yields, entry by entry, exactly the timeline planTurn returns, for every built-in task scenario', () => {
    for (const scenario of builtins.values()) {
      if (scenario.script.kind !== 'steps') continue;
      for (const seed of SEEDS.slice(0, 4)) {
        const input: TurnInput = {
          scenario,
          message: userMessage('Book a flight from Paris to Tokyo and write a report on the weather'),
          taskId: TASK_ID,
          contextId: CONTEXT_ID,
          nowMs: NOW,
          streams: taskStreams(`${seed}/turn-1`),
        };
        const whole = planTurn(input);
        const plan = startTurn({ ...input, streams: taskStreams(`${seed}/turn-1`) });
        const pulled: TimelineEntry[] = [];
        let step = plan.next();
        for (; !step.done; step = plan.next()) pulled.push(step.value);
        expect(pulled, `${scenario.id} with ${seed}`).toEqual(whole.entries);
        expect(step.value).toEqual(whole.end);
      }
    }
  });

  it('renders an entry only when it is pulled', async () => {
    const scenario = await inline(`
description: fails on its second entry
steps:
  - status: working
    message: "{{faker.number.int min=1 max=9}}"
  - status: completed
    message: "{{faker.number.int min=10 max=1}}"
`);
    const plan = startTurn({
      scenario,
      message: userMessage('hi'),
      taskId: TASK_ID,
      contextId: CONTEXT_ID,
      nowMs: NOW,
      streams: taskStreams('seed-1/turn-1'),
    });
    expect(plan.next().value).toMatchObject({ event: { kind: 'status', state: 'working' } });
    expect(() => plan.next()).toThrow(/max/i);
  });
});

describe('constant content', () => {
  it('renders a message with no {{...}} once, as one frozen value that every task shares', async () => {
    const scenario = await inline(`
description: ticks
steps:
  - { status: working, message: 'tick' }
  - { status: working, message: 'at {{uuid}}' }
  - status: completed
`);
    const partsOf = (timeline: Timeline) =>
      timeline.entries.map((e) => (e.event.kind === 'status' ? e.event.message?.parts : undefined));
    const first = partsOf(turn(scenario, 'go', 'seed-1'));
    const second = partsOf(turn(scenario, 'go', 'seed-2'));
    expect(first[0]).toEqual([{ kind: 'text', text: 'tick' }]);
    expect(second[0]).toBe(first[0]);
    expect(Object.isFrozen(first[0]) && Object.isFrozen(first[0]![0])).toBe(true);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]).not.toEqual(first[1]);
  });
});

describe('planReply', () => {
  it('answers a reply scenario with an agent Message in the caller context, after the scenario delay', () => {
    const input = {
      scenario: builtin('greeting'),
      message: userMessage('Hello'),
      contextId: CONTEXT_ID,
      nowMs: NOW,
    };
    const reply = planReply({ ...input, streams: taskStreams('seed-r') });
    expect(reply.atMs).toBe(100);
    expect(reply.message.role).toBe('agent');
    expect(reply.message.contextId).toBe(CONTEXT_ID);
    expect(reply.message.taskId).toBeUndefined();
    expect(textOfParts(reply.message.parts)).toMatch(/^Hello! I am a simulated A2A agent\./);

    expect(planReply({ ...input, streams: taskStreams('seed-r') })).toEqual(reply);
    expect(planReply({ ...input, streams: taskStreams('seed-other') }).message.messageId).not.toBe(
      reply.message.messageId,
    );
  });

  it('refuses a task scenario', () => {
    expect(() =>
      planReply({
        scenario: builtin('weather'),
        message: userMessage('weather'),
        contextId: CONTEXT_ID,
        nowMs: NOW,
        streams: taskStreams('s'),
      }),
    ).toThrow(/runs a task, not a reply/);
  });
});

describe('sampleDelay', () => {
  const draws = (spec: DelaySpec, n = 200) => {
    const random = new Random('delays');
    return Array.from({ length: n }, () => sampleDelay(spec, random));
  };

  it('a fixed delay is returned as is and draws nothing', () => {
    const random = new Random('fixed');
    const untouched = new Random('fixed');
    expect(sampleDelay({ kind: 'fixed', ms: 1234 }, random)).toBe(1234);
    expect(random.next()).toBe(untouched.next());
  });

  it('a uniform delay is a whole number within [min, max] and spreads across the range', () => {
    const values = draws({ kind: 'uniform', min: 100, max: 200 });
    for (const v of values) {
      expect(Number.isInteger(v)).toBe(true);
      expect(v).toBeGreaterThanOrEqual(100);
      expect(v).toBeLessThanOrEqual(200);
    }
    expect(Math.min(...values)).toBeLessThan(125);
    expect(Math.max(...values)).toBeGreaterThan(175);
  });

  it('a normal delay is clamped into [min, max]', () => {
    const values = draws({ kind: 'normal', mean: 1000, stddev: 5000, min: 500, max: 1500 });
    for (const v of values) {
      expect(v).toBeGreaterThanOrEqual(500);
      expect(v).toBeLessThanOrEqual(1500);
    }
    // With a stddev this wide, both bounds are hit.
    expect(values).toContain(500);
    expect(values).toContain(1500);
  });

  it('an exponential delay is clamped into [min, max]', () => {
    const values = draws({ kind: 'exponential', mean: 1000, min: 200, max: 3000 });
    for (const v of values) {
      expect(v).toBeGreaterThanOrEqual(200);
      expect(v).toBeLessThanOrEqual(3000);
    }
    expect(new Set(values).size).toBeGreaterThan(10);
  });

  it('the same seed gives the same sequence of draws', () => {
    const spec: DelaySpec = { kind: 'uniform', min: 0, max: 10_000 };
    expect(draws(spec, 20)).toEqual(draws(spec, 20));
  });
});

describe('textOf', () => {
  it('joins the text parts by newlines and leaves the others out', () => {
    const parts = [
      { kind: 'text' as const, text: 'first' },
      { kind: 'data' as const, data: { text: 'not text' } },
      { kind: 'text' as const, text: '' },
      { kind: 'text' as const, text: 'last' },
    ];
    expect(textOf({ role: 'user', messageId: 'm', parts })).toBe('first\n\nlast');
    expect(textOf({ role: 'user', messageId: 'm', parts: [parts[1]!] })).toBe('');
  });
});
