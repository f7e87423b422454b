/**
 * The workspace gateway (protocol digest §8): the request examples of seeds 002 and 003 as they
 * are written there, every envelope error row, and task scoping by (workspace, agent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, startSimWith, type TestSim } from '../../helpers/sim.js';
import { SseReader } from '../../helpers/sse.js';
import { callJson, getJson, JSON_HEADERS, rpc, rpcEnvelope, v03Send } from '../../helpers/wire.js';

const API_KEY = 'key-team';
const WORKSPACE_ID = 'ws-a';
const HEADERS = { 'X-API-Key': API_KEY, 'X-Workspace-ID': WORKSPACE_ID, 'Content-Type': 'application/json' };

let t: TestSim;
let gateway: string;
beforeAll(async () => {
  // A second agent, exposed only in ws-a, to show that the selector scopes tasks too.
  const helper =
    'code: helper\nname: Helper\ndescription: Answers the weather only.\nscenarios: [weather]\nworkspaces: [ws-a]\n';
  t = await startSimWith(
    { 'helper.agent.yaml': helper },
    { gatewayPrefix: '/acme', apiKeys: { [API_KEY]: ['ws-a', 'ws-b'], 'key-other': ['ws-c'] } },
  );
  gateway = `${t.url}/acme/agents/a2a`;
});
afterAll(() => t.close());

/** POSTs a raw body, as curl -d does, and reads the JSON answer. */
const post = (body: string, headers: Record<string, string> = HEADERS) =>
  t.drive(callJson(gateway, 'POST', '', { body, headers }));

/** A gateway call with `selector` beside the envelope; its id names the method. */
const call = (
  method: string,
  params: unknown,
  selector: Record<string, string> = { agent_code: 'explore' },
  headers: Record<string, string> = HEADERS,
) => t.drive(rpc(gateway, method, params, { path: '', id: `req-${method}`, envelope: selector, headers }));

describe('seed 002 and 003 examples, verbatim', () => {
  let taskId: string;
  let contextId: string;

  it('asks for input, then continues the waiting task from a message that names only its context', async () => {
    const asked = await call('message/send', v03Send('Book me a flight'));
    expect(asked.status).toBe(200);
    expect(asked.body.result).toMatchObject({ kind: 'task', status: { state: 'input-required' } });
    ({ id: taskId, contextId } = asked.body.result);

    // Seed 002's answer: "a new ordinary user message that reuses the task's contextId" (no taskId).
    const answer = `{
      "kind": "message",
      "role": "user",
      "messageId": "msg_answer_01",
      "contextId": "${contextId}",
      "parts": [
        {
          "kind": "text",
          "text": "From San Francisco to New York"
        }
      ]
    }`;
    const done = await post(
      `{"agent_code":"explore","jsonrpc":"2.0","id":"req_answer_01","method":"message/send","params":{"message":${answer}}}`,
    );
    expect(done.body).toMatchObject({
      jsonrpc: '2.0',
      id: 'req_answer_01',
      result: { kind: 'task', id: taskId, contextId, status: { state: 'completed' } },
    });
  });

  it('reads the task with tasks/get and agent_code (seed 002)', async () => {
    const { body } = await post(`{
  "agent_code": "explore",
  "jsonrpc": "2.0",
  "id": "req_task_get_01",
  "method": "tasks/get",
  "params": {
    "id": "${taskId}"
  }
}`);
    expect(body).toMatchObject({
      id: 'req_task_get_01',
      result: { kind: 'task', id: taskId, status: { state: 'completed' } },
    });
    expect(body.result.artifacts[0].parts.map((p: any) => p.kind)).toEqual(['text', 'data']);
  });

  it('reads the task with tasks/get and agent_id, as the curl of seed 003 sends it', async () => {
    const REQUEST_ID = 'req-003';
    const { status, body } = await post(
      `{
    "agent_id": "explore",
    "jsonrpc": "2.0",
    "id": "${REQUEST_ID}",
    "method": "tasks/get",
    "params": {
      "id": "${taskId}"
    }
  }`,
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      id: REQUEST_ID,
      result: { kind: 'task', id: taskId, contextId },
    });
  });

  it('cancels with tasks/cancel (seed 002), and resubscribes with taskId and afterSeq', async () => {
    const started = await call(
      'message/send',
      v03Send('Write a long report on climate change', {}, { configuration: { blocking: false } }),
    );
    const reportId = started.body.result.id;
    t.clock.advance(20_000); // a dozen events on

    const resubscribe = await t.drive(
      fetch(gateway, {
        method: 'POST',
        headers: HEADERS,
        body: `{"agent_code":"explore","jsonrpc":"2.0","id":"req_task_resubscribe_01","method":"tasks/resubscribe","params":{"taskId":"${reportId}","afterSeq":12}}`,
      }),
    );
    expect(resubscribe.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = new SseReader(resubscribe);

    const cancel = await post(
      `{"agent_code":"explore","jsonrpc":"2.0","id":"req_task_cancel_01","method":"tasks/cancel","params":{"id":"${reportId}"}}`,
    );
    expect(cancel.body).toMatchObject({
      id: 'req_task_cancel_01',
      result: { id: reportId, status: { state: 'working' } },
    });

    const events = await t.drive(frames.rest());
    expect(events[0]!.id).toBe('13');
    expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => 13 + i));
    expect(events.every((e) => e.json.id === 'req_task_resubscribe_01')).toBe(true);
    expect(events.at(-1)!.json.result).toMatchObject({
      kind: 'status-update',
      status: { state: 'canceled' },
      final: true,
    });

    const confirmed = await call('tasks/get', { id: reportId });
    expect(confirmed.body.result.status.state).toBe('canceled');
  });
});

describe('envelope errors (§8), answered before dispatch with the request id echoed', () => {
  const body = (
    selector: Record<string, unknown> = { agent_code: 'explore' },
    params: unknown = { id: 'task_123' },
  ) => JSON.stringify(rpcEnvelope('tasks/get', params, { id: 'req_01', ...selector }));

  it.each([
    [
      'no X-API-Key',
      { ...JSON_HEADERS, 'X-Workspace-ID': 'ws-a' },
      body(),
      401,
      -32000,
      'UNAUTHENTICATED',
      /X-API-Key/,
    ],
    [
      'an unknown X-API-Key',
      { ...HEADERS, 'X-API-Key': 'nope' },
      body(),
      401,
      -32000,
      'UNAUTHENTICATED',
      /configured/,
    ],
    [
      'no X-Workspace-ID',
      { ...JSON_HEADERS, 'X-API-Key': API_KEY },
      body(),
      403,
      -32000,
      'PERMISSION_DENIED',
      /X-Workspace-ID/,
    ],
    [
      'a workspace the key may not use',
      { ...HEADERS, 'X-Workspace-ID': 'ws-c' },
      body(),
      403,
      -32000,
      'PERMISSION_DENIED',
      /"ws-a", "ws-b"/,
    ],
    ['no selector', HEADERS, body({}), 400, -32600, 'INVALID_REQUEST', /agent_code/],
    [
      'a selector inside params',
      HEADERS,
      body({}, { id: 't', agent_code: 'explore' }),
      400,
      -32600,
      'INVALID_REQUEST',
      /top level/,
    ],
    [
      'agent_code and agent_id that disagree',
      HEADERS,
      body({ agent_code: 'explore', agent_id: 'helper' }),
      400,
      -32600,
      'INVALID_REQUEST',
      /different agents/,
    ],
    [
      'an unknown agent',
      HEADERS,
      body({ agent_code: 'nobody' }),
      404,
      -32000,
      'AGENT_NOT_FOUND',
      /Agents here: helper \(id helper\), explore \(id explore\)/,
    ],
    [
      'an agent not exposed in the workspace',
      { ...HEADERS, 'X-Workspace-ID': 'ws-b' },
      body({ agent_code: 'helper' }),
      404,
      -32000,
      'AGENT_NOT_FOUND',
      /ws-b/,
    ],
    ['a task not visible under the selector', HEADERS, body(), 200, -32001, 'TASK_NOT_FOUND', /task_123/],
  ])(
    'refuses %s with the HTTP status and JSON-RPC code of §8',
    async (_name, headers, raw, status, code, reason, hint) => {
      const answer = await post(raw, headers as Record<string, string>);
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: 'req_01', error: { code, data: { reason } } });
      expect(answer.body.error.message).toMatch(hint);
      if (status === 401) expect(answer.headers.get('www-authenticate')).toContain('X-API-Key');
    },
  );

  it('answers malformed JSON with -32700 and HTTP 400, and keeps serving', async () => {
    const answer = await post('{"agent_code": "explore", "jsonrpc": ', HEADERS);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ id: null, error: { code: -32700 } });
    expect((await call('tasks/get', { id: 'x' })).body.error.code).toBe(-32001);
  });

  it.each(['tasks/list', 'tasks/pushNotificationConfig/set', 'SendMessage'])(
    'answers %s, not a gateway method, with -32601',
    async (method) => {
      const { status, body } = await call(method, {});
      expect(status).toBe(200);
      expect(body.error).toMatchObject({ code: -32601 });
    },
  );
});

describe('scoping: a task belongs to the (workspace, agent) that created it', () => {
  let taskId: string;
  let notFound: any;
  beforeAll(async () => {
    taskId = (await call('message/send', v03Send('What is the weather today?'))).body.result.id;
    notFound = (await call('tasks/get', { id: 'no-such-task' })).body.error;
  });
  const asUnknown = (error: any) => JSON.parse(JSON.stringify(error).replaceAll(taskId, 'no-such-task'));

  it('is found by its creator', async () => {
    expect((await call('tasks/get', { id: taskId })).body.result.id).toBe(taskId);
  });

  it('is "not found", exactly like an unknown id, from another workspace', async () => {
    const other = await call('tasks/get', { id: taskId }, undefined, {
      ...HEADERS,
      'X-Workspace-ID': 'ws-b',
    });
    expect(asUnknown(other.body.error)).toEqual(notFound);
  });

  it('is "not found" with another agent selector in the same workspace', async () => {
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const { body } = await call(method, { id: taskId }, { agent_code: 'helper' });
      expect(body.error).toMatchObject({ code: -32001 });
      expect(JSON.stringify(body.error)).not.toMatch(/ws-a|explore/);
    }
  });

  it("is not visible on the agent's direct endpoints or at the root either", async () => {
    expect((await getJson(t, `/agents/explore/tasks/${taskId}`)).status).toBe(404);
    expect((await getJson(t, `/tasks/${taskId}`)).status).toBe(404);
  });

  it('starts a new task when the context named has no task waiting for input', async () => {
    const first = await call('message/send', v03Send('What is the weather today?'));
    const again = await call(
      'message/send',
      v03Send('What is the weather today?', { contextId: first.body.result.contextId }),
    );
    expect(again.body.result.id).not.toBe(first.body.result.id);
    expect(again.body.result.contextId).toBe(first.body.result.contextId);
  });
});

describe('without API keys (offline development)', () => {
  let open: TestSim;
  beforeAll(async () => {
    open = await startSim();
  });
  afterAll(() => open.close());

  it('serves the gateway at /agents/a2a with no key and no workspace header', async () => {
    const response = await open.drive(
      rpc(open, 'message/send', v03Send('What is the weather today?'), {
        path: '/agents/a2a',
        version: '1.0',
        envelope: { agent_code: 'explore' },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.body.result).toMatchObject({
      kind: 'task',
      status: { state: 'completed' },
    });
  });
});
