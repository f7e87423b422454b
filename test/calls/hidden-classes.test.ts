/**
 * Calls of every binding share their objects' hidden classes. On Node 20, an object made by a
 * spread and then given more properties (`{ ...base, version }`, `{ ...(a && { a }), ...(b && { b }) }`)
 * gets a hidden class of its own every time it is made: each one costs the call a new map, and every
 * function that reads such objects a megamorphic property access. This runs the real server under
 * V8's map log (`--log-maps`) and counts the hidden classes made while it serves a mix of calls,
 * after a warm-up: a path that makes one per call shows up as hundreds.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, serve } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-sim-maps-'));
const log = join(dir, 'v8.log');
let sim: ReturnType<typeof serve>;
let url: string;

beforeAll(async () => {
  sim = serve(['--port', '0', '--speed', '0', '--log-level', 'silent'], {}, CLI, [
    '--log-maps',
    '--no-log-maps-details',
    '--no-log-source-code',
    '--no-log-code',
    `--logfile=${log}`,
    '--no-logfile-per-isolate',
  ]);
  url = await sim.url;
});

afterAll(async () => {
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

const V1 = { 'Content-Type': 'application/json', 'A2A-Version': '1.0' };
const V03 = { 'Content-Type': 'application/json' };

async function call(
  path: string,
  body?: unknown,
  headers: Record<string, string> = V1,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, `${path}: ${text}`).toBeLessThan(500);
  return path.includes('stream') ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/**
 * One round of calls: REST, JSON-RPC 1.0 and 0.3, a follow-up, a stream, a push config, a cancel,
 * and calls to a tenant, a defined agent and the gateway.
 */
async function round(n: number): Promise<void> {
  const id = `${n}`;
  const message = {
    role: 'ROLE_USER',
    parts: [{ text: 'What is the weather today?', metadata: { n } }],
    messageId: `m-${id}`,
    contextId: `c-${id}`,
    metadata: { n },
  };
  const sent = await call('/message:send', {
    message,
    configuration: { acceptedOutputModes: ['text/plain'], historyLength: 3 },
    metadata: { n },
  });
  const taskId = (sent.task as { id: string }).id;
  await call(`/tasks/${taskId}?historyLength=1`);
  await call(`/tasks?contextId=c-${id}&pageSize=5`);
  await call('/', { jsonrpc: '2.0', id: n, method: 'GetTask', params: { id: taskId } });
  await call('/', {
    jsonrpc: '2.0',
    id: `s${n}`,
    method: 'SendMessage',
    params: { message: { ...message, messageId: `r-${id}` } },
  });
  await call('/', { jsonrpc: '2.0', id: n, method: 'tasks/get', params: { id: taskId } }, V03);
  const v03 = {
    kind: 'message',
    role: 'user',
    parts: [{ kind: 'text', text: 'weather?' }],
    messageId: `v-${id}`,
    contextId: `c-${id}`,
  };
  await call('/', { jsonrpc: '2.0', id: n, method: 'message/send', params: { message: v03 } }, V03);
  const booking = await call('/message:send', {
    message: { role: 'ROLE_USER', parts: [{ text: 'book a flight' }], messageId: `f-${id}` },
  });
  const task = booking.task as { id: string; contextId: string };
  const followUp = {
    role: 'ROLE_USER',
    parts: [{ text: 'to Paris tomorrow' }],
    messageId: `f2-${id}`,
    taskId: task.id,
    contextId: task.contextId,
  };
  await call('/message:send', { message: followUp });
  await call('/message:stream', {
    message: { role: 'ROLE_USER', parts: [{ text: 'weather' }], messageId: `st-${id}` },
  });
  await call(`/tasks/${task.id}/pushNotificationConfigs`, { url: 'http://127.0.0.1:9/hook', token: 't' });
  const slow = await call('/message:send', {
    message: { role: 'ROLE_USER', parts: [{ text: 'book a flight' }], messageId: `x-${id}` },
    configuration: { returnImmediately: true },
  });
  await call(`/tasks/${(slow.task as { id: string }).id}:cancel`, {});
  // A tenant's, a defined agent's, and the gateway's: each call in a scope of its own.
  await call(`/tenant-${n % 7}/message:send`, { message: { ...message, messageId: `t-${id}` } });
  await call('/agents/explore/message:send', { message: { ...message, messageId: `a-${id}` } });
  const gateway = { 'X-API-Key': 'dev', 'X-Workspace-ID': `ws-${n % 3}`, ...V03 };
  const asked = await call(
    '/agents/a2a',
    {
      agent_code: 'explore',
      jsonrpc: '2.0',
      id: n,
      method: 'message/send',
      params: { message: { ...v03, messageId: `g-${id}`, contextId: undefined } },
    },
    gateway,
  );
  const { contextId } = asked.result as { contextId: string };
  const answer = { ...v03, messageId: `g2-${id}`, contextId, parts: [{ kind: 'text', text: 'from Paris' }] };
  await call(
    '/agents/a2a',
    {
      agent_code: 'explore',
      jsonrpc: '2.0',
      id: `${n}b`,
      method: 'message/send',
      params: { message: answer },
    },
    gateway,
  );
}

async function rounds(from: number, count: number): Promise<void> {
  // Four clients at a time, each on its own kept-alive connection.
  let next = from;
  const worker = async () => {
    while (next < from + count) await round(next++);
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

/** Hidden classes V8 made or changed so far, as its map log says. */
const mapsMade = () =>
  readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('map,')).length;

describe('hidden classes', () => {
  it('are made while the server warms up, and hardly any per call after', { timeout: 60_000 }, async () => {
    await rounds(0, 40);
    const warm = mapsMade();
    expect(warm).toBeGreaterThan(1000); // the log is written: startup alone makes thousands
    const ROUNDS = 120;
    await rounds(40, ROUNDS);
    const made = mapsMade() - warm;
    // Sixteen calls a round: one hidden class per call would be almost 2,000.
    expect(made, `${made} hidden classes made in ${ROUNDS} rounds of 16 calls`).toBeLessThan(ROUNDS);
  });
});
