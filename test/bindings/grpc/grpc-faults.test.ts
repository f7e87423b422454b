/**
 * What the official SDK's tests of gRPC leave out, sent with grpc-js itself: chaos's other drop
 * modes on a stream (a reset with no status, a hang that leaves the call open), a resume from a
 * cursor (`last-event-id` metadata on SubscribeToTask), and an agent that asks for credentials.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ClientReadableStream, Metadata, ServiceError, StatusObject } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadataOf, rawGrpcClient, type RawGrpcService } from '../../helpers/grpc.js';
import { startSim, type TestSim } from '../../helpers/sim.js';
import { REPORT_TEXT, runUntil, settle } from '../../chaos/helpers.js';

type Item = Record<string, any>;

let t: TestSim;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'a2a-sim-grpc-'));
  const vault = ['name: Vault', 'description: Needs a key.', 'scenarios: [weather]', 'security:'];
  await writeFile(
    path.join(dir, 'vault.agent.yaml'),
    [...vault, '  apiKey: { header: X-API-Key }'].join('\n'),
  );
  t = await startSim({ grpcPort: 0, scenarioDirs: [dir] });
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const service = (address = t.sim.grpcUrl!) => rawGrpcClient(address);
const metadata = metadataOf;

const send = (text: string) => ({
  message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] },
});

interface Outcome {
  items: Item[];
  error?: ServiceError;
  status?: StatusObject;
}

/** Reads a server stream to its end, its error, or (for `open`) until `enough` items came. */
function read(call: ClientReadableStream<Item>, enough = Infinity): Promise<Outcome> & { items: Item[] } {
  const items: Item[] = [];
  const done = new Promise<Outcome>((resolve) => {
    call.on('data', (item: Item) => {
      items.push(item);
      if (items.length >= enough) resolve({ items });
    });
    call.on('error', (error: ServiceError) => resolve({ items, error }));
    call.on('status', (status: StatusObject) => {
      if (status.code === 0) resolve({ items, status });
    });
  });
  return Object.assign(done, { items });
}

const stateOf = (item: Item): string | undefined =>
  item['task']?.status?.state ?? item['statusUpdate']?.status?.state;

describe('chaos drops on a gRPC stream', () => {
  it('resets the stream in reset mode: no status from the server, a fault recorded', async () => {
    const call = service().SendStreamingMessage(
      send(REPORT_TEXT),
      metadata({ 'x-sim-chaos': 'drop-after-events=2,drop-mode=reset', 'x-sim-client': 'reset' }),
    );
    const { items, error } = await settle(t, read(call));
    expect(items).toHaveLength(2);
    // RST_STREAM with CANCEL: grpc-js reports that the server cancelled, not that the call ended.
    expect(error?.code).not.toBe(0);
    expect(error?.details).not.toMatch(/resubscribe/);
    const taskId = items[0]!['task'].id as string;
    expect(t.sim.faults.list().find((f) => f.taskId === taskId)).toMatchObject({ kind: 'drop' });
  });

  it('stops writing in hang mode and leaves the call open until the client gives up', async () => {
    const call = service().SendStreamingMessage(
      send(REPORT_TEXT),
      metadata({ 'x-sim-chaos': 'drop-after-events=2,drop-mode=hang', 'x-sim-client': 'hang' }),
    );
    const reading = read(call);
    await runUntil(t, () => reading.items.length >= 2, 'two events');
    const taskId = reading.items[0]!['task'].id as string;
    // The task goes on to its end; the call hears nothing more of it.
    await runUntil(t, () => t.sim.store.find(taskId)?.status.state === 'completed', 'the end');
    expect(reading.items).toHaveLength(2);
    call.cancel();
    const { error } = await reading;
    expect(error?.code).toBe(1);
  });
});

describe('a resume from a cursor', () => {
  it('sends, after the last-event-id seq, only the events that came after it, to the end', async () => {
    const first = service().SendStreamingMessage(
      send(REPORT_TEXT),
      metadata({ 'x-sim-chaos': 'drop-after-events=3', 'x-sim-client': 'cursor' }),
    );
    const cut = await settle(t, read(first));
    expect(cut.error?.code).toBe(14);
    const taskId = cut.items[0]!['task'].id as string;
    await runUntil(t, () => t.sim.store.find(taskId)?.status.state === 'completed', 'the end');
    const after = (seq: number) =>
      settle(t, read(service().SubscribeToTask({ id: taskId }, metadata({ 'last-event-id': String(seq) }))));
    const [from2, from3] = [await after(2), await after(3)];
    for (const resumed of [from2, from3]) {
      expect(resumed.error).toBeUndefined();
      // No snapshot: the events after the cursor, to the end.
      expect(resumed.items.some((item) => item['task'])).toBe(false);
      expect(stateOf(resumed.items.at(-1)!)).toBe('TASK_STATE_COMPLETED');
    }
    expect(from2.items.length).toBe(from3.items.length + 1);
    expect(from2.items.slice(1)).toEqual(from3.items);
  });

  it('refuses a cursor the server never sent with INVALID_ARGUMENT', async () => {
    const call = service().SubscribeToTask(
      { id: 'no-such-task' },
      metadata({ 'last-event-id': 'undefined' }),
    );
    const { error } = await settle(t, read(call));
    expect([3, 5]).toContain(error?.code);
  });
});

describe('an agent that asks for credentials', () => {
  const vault = () => service(t.sim.agents.find((a) => a.id === 'vault')!.grpcUrl!);
  const unary = (client: RawGrpcService, md: Metadata) =>
    new Promise<{ error: ServiceError | null; answer: Item }>((resolve) =>
      client.SendMessage(send('What is the weather today?'), md, (error: ServiceError | null, answer: Item) =>
        resolve({ error, answer }),
      ),
    );

  it('answers a call without them with UNAUTHENTICATED, and serves one with them', async () => {
    const refused = await t.drive(unary(vault(), metadata({})));
    expect(refused.error?.code).toBe(16);
    expect(refused.error?.details).toMatch(/X-API-Key|credentials|authentic/i);
    const served = await t.drive(unary(vault(), metadata({ 'x-api-key': 'any-key' })));
    expect(served.error).toBeNull();
    expect(served.answer['task']?.id ?? served.answer['message']).toBeDefined();
  });
});
