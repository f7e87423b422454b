/**
 * `configuration.ifGenerationMatch` (v1.1 draft §3.2.2) with `--preview generation`: a follow-up to
 * a task at another generation is refused with TaskGenerationMismatchError in each v1.0 binding's
 * shape (JSON-RPC -32010, HTTP 409 ABORTED, gRPC ABORTED); a message that creates a task ignores it.
 * Real server; the gRPC client is grpc-js over the proto the simulator ships.
 */
import { credentials, loadPackageDefinition, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aProtos } from '../../src/bindings/grpc/protos.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postJson, rpc, v1Send } from '../helpers/wire.js';

let t: TestSim;
beforeAll(async () => {
  t = await startSim({ preview: ['generation'], keepAlive: 0, grpcPort: 0 });
});
afterAll(() => t.close());

/** A task paused at input-required, at generation 3 (created, working, input-required). */
async function pausedTask(): Promise<{ id: string; generation: number }> {
  const sent = await t.drive(postJson(t, '/message:send', v1Send('Book me a flight')));
  expect(sent.body.task.generation).toBe(3);
  return { id: sent.body.task.id, generation: sent.body.task.generation };
}

const followUp = (taskId: string, ifGenerationMatch: number) =>
  v1Send('From Paris to Rome', { taskId }, { configuration: { ifGenerationMatch } });

const ERROR_INFO = {
  '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
  reason: 'TASK_GENERATION_MISMATCH',
  domain: 'a2a-protocol.org',
};

describe('gRPC', () => {
  it('carries the generation on the Task, and reads currentGeneration', async () => {
    const { id } = await pausedTask();
    // proto-loader reads int64 as a decimal string.
    const { answer } = await grpcCall('GetTask', { id, currentGeneration: 2 });
    expect(answer.generation).toBe('3');
  });
});

describe('ifGenerationMatch on a follow-up', () => {
  it('is refused over JSON-RPC with -32010 when it is not the generation', async () => {
    const { id } = await pausedTask();
    const { body } = await t.drive(rpc(t, 'SendMessage', followUp(id, 2), { version: '1.0' }));
    expect(body.error.code).toBe(-32010);
    expect(body.error.message).toMatch(/^Task generation mismatch: expected 2 but current generation is 3/);
    expect(body.error.data).toContainEqual({
      ...ERROR_INFO,
      metadata: { taskId: id, expectedGeneration: '2', currentGeneration: '3' },
    });
  });

  it('is refused over HTTP+JSON with 409 and an ABORTED google.rpc.Status (§11.6)', async () => {
    const { id } = await pausedTask();
    const { status: code, body } = await t.drive(postJson(t, '/message:send', followUp(id, 4)));
    expect(code).toBe(409);
    expect(body.error).toMatchObject({ code: 409, status: 'ABORTED' });
    expect(body.error.details).toContainEqual({
      ...ERROR_INFO,
      metadata: { taskId: id, expectedGeneration: '4', currentGeneration: '3' },
    });
  });

  it('is refused on a stream before it opens', async () => {
    const { id } = await pausedTask();
    const { status: code, body } = await t.drive(postJson(t, '/message:stream', followUp(id, 1)));
    expect(code).toBe(409);
    expect(body.error.status).toBe('ABORTED');
  });

  it('is refused over gRPC with ABORTED', async () => {
    const { id } = await pausedTask();
    const { error } = await grpcCall('SendMessage', {
      message: grpcMessage(id),
      configuration: { ifGenerationMatch: 7 },
    });
    expect(error?.code).toBe(status.ABORTED);
    expect(error?.details).toMatch(/expected 7 but current generation is 3/);
  });

  it('lets the follow-up through when it matches, and the task moves on', async () => {
    const { id } = await pausedTask();
    const { body } = await t.drive(postJson(t, '/message:send', followUp(id, 3)));
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(body.task.generation).toBeGreaterThan(3);
  });

  it('is ignored by a message that creates a task (§3.2.2)', async () => {
    const request = v1Send('Book me a flight', {}, { configuration: { ifGenerationMatch: 42 } });
    const { body } = await t.drive(postJson(t, '/message:send', request));
    expect(body.task.generation).toBe(3);
  });
});

type Unary = (
  request: unknown,
  metadata: Metadata,
  done: (error: ServiceError | null, answer?: any) => void,
) => void;

/** One unary call through grpc-js, over the shipped proto: its answer, or the error it ended with. */
function grpcCall(method: string, request: unknown): Promise<{ error?: ServiceError; answer?: any }> {
  const loaded = loadPackageDefinition(a2aProtos()) as any;
  const client = new loaded.lf.a2a.v1.A2AService(t.sim.grpcUrl!, credentials.createInsecure());
  const call = client[method].bind(client) as Unary;
  const answered = new Promise<{ error?: ServiceError; answer?: any }>((resolve) =>
    call(request, new Metadata(), (error, answer) => resolve(error ? { error } : { answer })),
  );
  return t.drive(answered).finally(() => client.close());
}

const grpcMessage = (taskId: string) => ({
  messageId: `grpc-${taskId}`,
  taskId,
  role: 'ROLE_USER',
  parts: [{ text: 'From Paris to Rome' }],
});
