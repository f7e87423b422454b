/**
 * What a recording writes, from conversations made by hand: the match rule each `--match` gives,
 * answers to the same question merged into branches, a client's cancel as the scenario's `cancel`,
 * direct replies and errors, and nothing secret. Every file written must load as a scenario.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { A2AError } from '../../src/domain/errors.js';
import type { Message, TaskEvent, TaskState } from '../../src/domain/types.js';
import { renderParts, renderText } from '../../src/engine/content.js';
import { Random } from '../../src/lib/random.js';
import type { Conversation, Turn } from '../../src/record/conversations.js';
import { writeRecording, type MatchBy } from '../../src/record/write.js';
import { parseScenario } from '../../src/scenario/load.js';
import type { PartTemplate, Scenario } from '../../src/scenario/model.js';

const user = (text: string, extra: Partial<Message> = {}): Message => ({
  messageId: `msg-${text.length}`,
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...extra,
});
const status = (state: TaskState, text?: string): TaskEvent => ({
  kind: 'status',
  status: {
    state,
    timestamp: '2026-01-01T00:00:00.000Z',
    ...(text && { message: { messageId: `a-${text}`, role: 'agent', parts: [{ kind: 'text', text }] } }),
  },
});
const turn = (message: Message, events: [number, TaskEvent][], extra: Partial<Turn> = {}): Turn => ({
  message,
  sentAtMs: 0,
  events: events.map(([atMs, event]) => ({ atMs, event })),
  ...extra,
});
const task = (...turns: Turn[]): Conversation => ({
  turns,
  outcome: { kind: 'task', taskId: 'task-1', contextId: 'ctx-1' },
});

let out: string;
beforeEach(async () => {
  out = await mkdtemp(join(tmpdir(), 'a2a-sim-write-'));
});
afterEach(() => rm(out, { recursive: true, force: true }));

async function write(conversations: Conversation[], match: MatchBy = 'text', redact: string[] = []) {
  const files = await writeRecording(conversations, {
    out,
    match,
    redact,
    source: { url: 'http://agent', binding: 'rest', name: 'desk' },
    date: '2026-12-01',
  });
  const scenarios: Record<string, any> = {};
  for (const file of files.filter((f) => !f.endsWith('.agent.yaml'))) {
    const text = await readFile(file, 'utf8');
    const { issues } = await parseScenario(basename(file, '.yaml'), file, text);
    expect(issues, text).toEqual([]);
    scenarios[basename(file, '.yaml')] = parse(text);
  }
  return { files, scenarios };
}

describe('writeRecording', () => {
  it('matches by text, messageId prefix, metadata (without secrets) or skill', async () => {
    const first = user('Track order 42', {
      messageId: 'order-17',
      metadata: { skillId: 'orders', channel: 'web', apiToken: 'x1', session: 's1' },
    });
    const conversation = task(turn(first, [[20, status('completed', 'Shipped')]]));
    const rules: Record<MatchBy, unknown> = {
      text: { text: 'Track order 42' },
      'messageId-prefix': { messageId: { prefix: 'order-' } },
      metadata: { metadata: { skillId: 'orders', channel: 'web' } },
      skill: { skill: 'orders' },
    };
    for (const [match, rule] of Object.entries(rules) as [MatchBy, unknown][]) {
      const { scenarios } = await write([conversation], match, ['session']);
      expect(scenarios['track-order-42'].match).toEqual([rule]);
    }
  });

  it('merges answers to the same question into one scenario: the first follows the input, the others branch', async () => {
    const ask: [number, TaskEvent][] = [[10, status('input-required', 'Where to?')]];
    const conversations = [
      task(
        turn(user('Book a flight'), ask),
        turn(user('To Rome'), [[30, status('completed', 'Booked {{x}} to Rome')]]),
      ),
      task(turn(user('Book a flight'), ask), turn(user('Never mind'), [[50, status('canceled', 'Stopped')]])),
    ];
    const { files, scenarios } = await write(conversations);
    expect(files).toHaveLength(2);
    const { steps } = scenarios['book-a-flight'];
    expect(steps[0]).toEqual({
      input: {
        message: 'Where to?',
        branches: [
          {
            when: { text: 'Never mind' },
            steps: [{ status: 'canceled', message: 'Stopped', after: '50ms' }],
          },
        ],
      },
      after: '10ms',
    });
    expect(steps[1]).toEqual({
      status: 'completed',
      message: 'Booked {{pick "{{"}}x}} to Rome',
      after: '30ms',
    });
  });

  it("writes a client's cancel as the scenario's cancel, and repeats as delay ranges", async () => {
    const canceled = (cancelAt: number, doneAt: number) =>
      task(
        turn(
          user('Write a long report'),
          [
            [100, status('working', 'Writing')],
            [doneAt, status('canceled', 'Report canceled')],
          ],
          { cancelAtMs: cancelAt },
        ),
      );
    const { scenarios } = await write([canceled(200, 500), canceled(200, 900)]);
    expect(scenarios['write-a-long-report']).toMatchObject({
      cancel: { after: { min: '300ms', max: '700ms' }, message: 'Report canceled' },
      steps: [
        { status: 'working', message: 'Writing', after: '100ms' },
        { status: 'canceled', message: 'Report canceled', after: { min: '400ms', max: '800ms' } },
      ],
    });
  });

  it('writes a direct reply as reply, and an A2A error as error', async () => {
    const { scenarios } = await write([
      {
        turns: [turn(user('Hello'), [])],
        outcome: {
          kind: 'message',
          atMs: 40,
          message: { messageId: 'r', role: 'agent', parts: [{ kind: 'text', text: 'Hi!' }] },
        },
      },
      {
        turns: [turn(user('Hack it'), [])],
        outcome: { kind: 'error', atMs: 10, error: new A2AError('UnsupportedOperationError', 'Not that.') },
      },
    ]);
    expect(scenarios['hello']).toMatchObject({ reply: { message: 'Hi!', after: '40ms' } });
    expect(scenarios['hack-it']).toMatchObject({
      error: { type: 'UnsupportedOperationError', message: 'Not that.', after: '10ms' },
    });
  });

  it("writes the card's name and the URL in the header comment harmlessly, whatever they hold", async () => {
    const name = 'Desk\npriority: 1000\nfallback: true\r\nchaos: flaky-mobile\u2028tags: [x]\u0085y: 1';
    const url = 'http://agent/\nmatch: []';
    const files = await writeRecording([task(turn(user('Track order 42'), [[20, status('completed')]]))], {
      out,
      match: 'text',
      redact: [],
      source: {
        url,
        binding: 'rest',
        card: {
          name,
          description: 'A desk',
          skills: [],
          streaming: true,
          pushNotifications: false,
          extensions: [],
        },
      },
      date: '2026-12-01',
    });
    expect(files.map((f) => basename(f))).toEqual([
      'track-order-42.yaml',
      'desk-priority-1000-fallback-true-chaos.agent.yaml',
    ]);
    const [scenarioFile, agentFile] = await Promise.all(files.map((f) => readFile(f, 'utf8')));
    for (const text of [scenarioFile!, agentFile!]) {
      const [first, ...rest] = text.split('\n');
      expect(first).toContain(
        'Desk\\npriority: 1000\\nfallback: true\\r\\nchaos: flaky-mobile\\u2028tags: [x]\\u0085y: 1 at http://agent/\\nmatch: [] (rest)',
      );
      expect(rest.filter((line) => line.startsWith('#'))).toEqual([]);
    }
    expect(Object.keys(parse(scenarioFile!))).toEqual(['description', 'match', 'steps']);
    const { scenario, issues } = await parseScenario('track-order-42', files[0]!, scenarioFile!);
    expect(issues).toEqual([]);
    expect(scenario).toMatchObject({ priority: 0, fallback: false, match: [{ text: /Track order 42/i }] });
    expect(scenario!.chaos).toBeUndefined();
    expect(parse(agentFile!)).toMatchObject({ name, scenarios: ['track-order-42'] });
    expect(Object.keys(parse(agentFile!))).toEqual(['name', 'description', 'scenarios']);
  });

  describe('writes any agent text so that it replays as itself', () => {
    /** Braces on their own, beside each other, and beside what becomes a template (the ids, the input). */
    const TEXTS = [
      '{abc}',
      '{{x}}',
      '{task-1}',
      '{{task-1}}',
      '{{{task-1}}}',
      '}}{{',
      '{ctx-1}}}',
      '{',
      '}',
      '{{',
      'a {{ b }} c {{',
      '{{pick "{{"}}',
      '"}}" {{task-1',
      '{Track my order}',
      'task-1{ctx-1}',
    ];
    const scope = {
      inputText: 'Track my order',
      inputMessageId: 'msg-14',
      taskId: 'task-1',
      contextId: 'ctx-1',
      nowMs: 0,
      random: new Random('braces'),
      vars: {},
    };
    const played = (parts: PartTemplate[] | undefined) => renderParts(parts!, scope).map((p: any) => p.text);

    async function load(conversation: Conversation): Promise<Scenario> {
      const [file] = await writeRecording([conversation], {
        out,
        match: 'text',
        redact: [],
        source: { url: 'http://agent', binding: 'rest', name: 'desk' },
        date: '2026-12-01',
      });
      const { scenario, issues } = await parseScenario(
        'track-my-order',
        file!,
        await readFile(file!, 'utf8'),
      );
      expect(issues).toEqual([]);
      return scenario!;
    }

    it('in the steps of a task, beside the ids and the input it echoes', async () => {
      const events = TEXTS.map((text, i): [number, TaskEvent] => [
        i,
        status(i === TEXTS.length - 1 ? 'completed' : 'working', text),
      ]);
      const scenario = await load(task(turn(user('Track my order'), events)));
      if (scenario.script.kind !== 'steps') throw new Error(scenario.script.kind);
      const texts = scenario.script.steps.map((step) =>
        'message' in step ? played(step.message)[0] : undefined,
      );
      expect(texts).toEqual(TEXTS);
    });

    it('in a direct reply, an error and a cancel message', async () => {
      for (const text of TEXTS) {
        const reply = await load({
          turns: [turn(user('Track my order'), [])],
          outcome: {
            kind: 'message',
            atMs: 10,
            message: { messageId: 'r', role: 'agent', parts: [{ kind: 'text', text }] },
          },
        });
        if (reply.script.kind !== 'reply') throw new Error(reply.script.kind);
        expect(played(reply.script.variants[0]!.message)).toEqual([text]);
        const error = await load({
          turns: [turn(user('Track my order'), [])],
          outcome: { kind: 'error', atMs: 10, error: new A2AError('UnsupportedOperationError', text) },
        });
        if (error.script.kind !== 'error') throw new Error(error.script.kind);
        expect(renderText(error.script.message!, scope)).toBe(text);
        const canceled = await load(
          task(turn(user('Track my order'), [[20, status('canceled', text)]], { cancelAtMs: 10 })),
        );
        expect(played(canceled.cancel.message)).toEqual([text]);
      }
    });

    it('in a URL part', async () => {
      const url = 'https://files.example/{task-1}/{{name}}';
      const message = { messageId: 'a', role: 'agent' as const, parts: [{ kind: 'url' as const, url }] };
      const status: TaskEvent = { kind: 'status', status: { state: 'completed', timestamp: '', message } };
      const scenario = await load(task(turn(user('Track my order'), [[10, status]])));
      if (scenario.script.kind !== 'steps') throw new Error(scenario.script.kind);
      const [step] = scenario.script.steps;
      expect(renderParts((step as { message: PartTemplate[] }).message, scope)).toMatchObject([{ url }]);
    });
  });
});
