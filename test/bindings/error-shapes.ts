/**
 * How the v1.0 bindings' errors look (protocol digest §3), checked on supertest answers: a JSON-RPC
 * error object with ErrorInfo in `data`, a google.rpc.Status with ErrorInfo in `details`. Shared by
 * the error tests.
 */
import request from 'supertest';
import { expect } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { v1Send } from '../helpers/wire.js';

export const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
export const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';

/** A simulator playing without delays, and the id of a task that completed there (the weather). */
export async function startWithCompletedTask(): Promise<{ t: TestSim; completedTaskId: string }> {
  const t = await startSim({ speed: 0 });
  const res = await request(t.url)
    .post('/message:send')
    .set('Content-Type', 'application/json')
    .send(v1Send('What is the weather today?', { messageId: 'm-done' }));
  expect(res.body.task.status.state).toBe('TASK_STATE_COMPLETED');
  return { t, completedTaskId: res.body.task.id };
}

/** POSTs a JSON-RPC body (an object, or a string as it is) to `/` of `url`. */
export function postRpc(url: string, body: unknown, headers: Record<string, string> = {}) {
  const req = request(url).post('/').set('Content-Type', 'application/json');
  for (const [k, v] of Object.entries(headers)) req.set(k, v);
  return typeof body === 'string' ? req.send(body) : req.send(body as object);
}

export function expectRpcError(res: request.Response, code: number, reason: string, id: unknown = 1) {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body.jsonrpc).toBe('2.0');
  expect(res.body.id).toStrictEqual(id);
  expect(res.body).not.toHaveProperty('result');
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(Array.isArray(res.body.error.data)).toBe(true);
  expect(res.body.error.data[0]).toMatchObject({ '@type': ERROR_INFO, reason, domain: 'a2a-protocol.org' });
}

export function expectRestError(res: request.Response, httpStatus: number, status: string, reason: string) {
  expect(res.status).toBe(httpStatus);
  // Answered in the JSON media type the request was sent in; application/json when it named none.
  const sent = String(
    (res as unknown as { req: { getHeader(name: string): unknown } }).req.getHeader('content-type') ?? '',
  );
  expect(res.headers['content-type']).toMatch(
    sent.startsWith('application/a2a+json') ? /^application\/a2a\+json;/ : /^application\/json;/,
  );
  expect(res.body.error).toMatchObject({ code: httpStatus, status });
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.details[0]).toMatchObject({
    '@type': ERROR_INFO,
    reason,
    domain: 'a2a-protocol.org',
  });
}

/** A v0.3 JSON-RPC error: the v1.0 code, and `data` an object (not a list) naming the reason. */
export function expectV03Error(body: any, code: number, reason: string, id: unknown = 1) {
  expect(body).toMatchObject({ jsonrpc: '2.0', id, error: { code, data: { reason } } });
  expect(body).not.toHaveProperty('result');
  expect(typeof body.error.message).toBe('string');
  expect(Array.isArray(body.error.data)).toBe(false);
}
