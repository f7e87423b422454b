/**
 * `configuration.acceptedOutputModes` on every binding: it chooses among the variants of an
 * artifact or a reply, and a client that accepts none of them is refused with
 * ContentTypeNotSupportedError before any task exists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimWith, type TestSim } from '../helpers/sim.js';
import { postJson, rpc, V1_HEADERS, v03Send, v1Send } from '../helpers/wire.js';

let t: TestSim;

beforeAll(async () => {
  t = await startSimWith(
    {
      'forecast.yaml': [
        'description: A forecast as data or as text.',
        'match: [{ keywords: [forecast] }]',
        'steps:',
        '  - artifact:',
        '      name: Forecast',
        '      variants:',
        '        - { mediaType: application/json, parts: [{ data: { tempC: 21 } }] }',
        '        - { mediaType: text/plain, parts: [{ text: "21 °C" }] }',
        '  - status: completed',
      ].join('\n'),
      'report.yaml': [
        'description: Asks which city, then reports as data or as text.',
        'match: [{ keywords: [report] }]',
        'steps:',
        '  - input: { message: Which city? }',
        '  - artifact:',
        '      variants:',
        '        - { mediaType: application/json, parts: [{ data: { city: "{{input.text}}" } }] }',
        '        - { mediaType: text/plain, parts: [{ text: "{{input.text}}" }] }',
        '  - status: completed',
      ].join('\n'),
      'desk.agent.yaml': 'name: Desk\ndescription: Forecasts.\nscenarios: [forecast]\n',
    },
    { builtinScenarios: false, speed: 0 },
  );
});
afterAll(() => t.close());

/** The configuration that accepts `accepted`, if given. */
const modes = (accepted?: string[]) => (accepted ? { configuration: { acceptedOutputModes: accepted } } : {});
const v1 = (accepted?: string[]) => v1Send('forecast please', { messageId: 'm-1' }, modes(accepted));
const v03 = (accepted?: string[]) => v03Send('forecast', { messageId: 'm-1' }, modes(accepted));

/** Each binding: how to send, and where the answer's artifact parts and error code are. */
const BINDINGS = [
  {
    name: 'REST',
    send: (accepted?: string[]) => postJson(t, '/message:send', v1(accepted), V1_HEADERS),
    parts: (answer: any) => answer.body.task.artifacts[0].parts,
    refusal: (answer: any) => [answer.status, answer.body.error.details[0].reason],
    expected: [400, 'CONTENT_TYPE_NOT_SUPPORTED'],
  },
  {
    name: 'JSON-RPC 1.0',
    send: (accepted?: string[]) => rpc(t, 'SendMessage', v1(accepted), { version: '1.0' }),
    parts: (answer: any) => answer.body.result.task.artifacts[0].parts,
    refusal: (answer: any) => [answer.body.error.code, answer.body.error.data[0].reason],
    expected: [-32005, 'CONTENT_TYPE_NOT_SUPPORTED'],
  },
  {
    name: 'JSON-RPC 0.3',
    send: (accepted?: string[]) => rpc(t, 'message/send', v03(accepted)),
    parts: (answer: any) => answer.body.result.artifacts[0].parts,
    refusal: (answer: any) => [answer.body.error.code, answer.body.error.data.reason],
    expected: [-32005, 'CONTENT_TYPE_NOT_SUPPORTED'],
  },
  {
    name: 'gateway',
    send: (accepted?: string[]) =>
      rpc(t, 'message/send', v03(accepted), { path: '/agents/a2a', envelope: { agent_code: 'desk' } }),
    parts: (answer: any) => answer.body.result.artifacts[0].parts,
    refusal: (answer: any) => [answer.body.error.code, answer.body.error.data.reason],
    expected: [-32005, 'CONTENT_TYPE_NOT_SUPPORTED'],
  },
];

describe.each(BINDINGS)('acceptedOutputModes over $name', (binding) => {
  it('sends the first variant when the client names no modes', async () => {
    expect(binding.parts(await binding.send())).toEqual([expect.objectContaining({ data: { tempC: 21 } })]);
  });

  it('sends the first variant the modes accept', async () => {
    expect(binding.parts(await binding.send(['image/*', 'text/*']))).toEqual([
      expect.objectContaining({ text: '21 °C' }),
    ]);
  });

  it('refuses a client that accepts none of them, creating no task', async () => {
    const before = t.sim.store.size;
    expect(binding.refusal(await binding.send(['image/png']))).toEqual(binding.expected);
    expect(t.sim.store.size).toBe(before);
  });
});

describe('acceptedOutputModes on a follow-up', () => {
  const send = (text: string, extra: Record<string, unknown> = {}, accepted?: string[]) =>
    postJson(
      t,
      '/message:send',
      v1Send(text, { messageId: `m-${text}`, ...extra }, modes(accepted)),
      V1_HEADERS,
    );

  it('are checked again on each turn: a refused follow-up leaves the task waiting', async () => {
    // The first turn sends no variant yet, but the client could never take the report: refused at once.
    expect((await send('report', {}, ['image/png'])).status).toBe(400);
    const asked = await send('report');
    const taskId = asked.body.task.id;
    expect(asked.body.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const refused = await send('Oslo', { taskId }, ['image/png']);
    expect(refused.body.error.details[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
    const done = await send('Oslo', { taskId }, ['text/plain']);
    expect(done.body.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.body.task.artifacts[0].parts).toEqual([{ text: 'Oslo' }]);
  });
});
