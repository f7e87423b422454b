/**
 * What a client sends is kept only as bounded copies, each counted against a budget that
 * `/_sim/health` shows: JSON-RPC ids, headers, bodies, the journal, the verdicts, the event history
 * and slow requests (findings F1, F2, F15, F16, F21 of the adversarial review).
 */
import { connect } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, startSimWith, type TestSim } from '../helpers/sim.js';
import { rpcEnvelope } from '../helpers/wire.js';

const KiB = 1024;
const MiB = 1024 * KiB;

describe('a JSON-RPC id of 1 MiB (F1)', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim({ speed: 0 })));
  afterAll(() => t.close());

  it('is echoed whole in the answer, and kept clipped in the journal', async () => {
    const id = 'i'.repeat(MiB);
    const res = await request(t.url)
      .post('/')
      .set('Content-Type', 'application/json')
      .set('A2A-Version', '1.0')
      .send(rpcEnvelope('GetTask', { id: 'no-such-task' }, { id }));
    expect(res.body.id).toBe(id);
    expect(res.body.error.code).toBe(-32001);
    const entry = t.sim.journal.list().at(-1)!;
    expect(entry.operation).toBe('GetTask');
    expect(typeof entry.id).toBe('string');
    expect((entry.id as string).length).toBeLessThan(200);
    expect(entry.id).toMatch(/^i{128}… \(1048448 more characters\)$/);
  });
});

describe('budgets for the journal and the verdicts (F2)', () => {
  let t: TestSim;
  beforeAll(
    async () =>
      (t = await startSim({ speed: 0, journalSize: 50, journalBytes: 64 * KiB, verdictBytes: 64 * KiB })),
  );
  afterAll(() => t.close());

  it('keeps what 300 clients with 15 KB headers sent within both budgets, and says so in /_sim/health', async () => {
    const header = `drop-after-events=${'9'.repeat(15 * KiB)}`;
    for (let i = 0; i < 300; i++) {
      const res = await request(t.url)
        .get('/tasks/no-such-task')
        .set('X-Sim-Client', `client-${i}`)
        .set('X-Sim-Chaos', header);
      expect(res.status).toBe(400);
    }
    const { body } = await request(t.url).get('/_sim/health');
    const { journal, verdicts } = body.memory;
    expect(journal.maxBytes).toBe(64 * KiB);
    expect(journal.bytes).toBeGreaterThan(0);
    expect(journal.bytes).toBeLessThanOrEqual(64 * KiB);
    expect(journal.entries).toBeLessThan(50);
    expect(verdicts.maxBytes).toBe(64 * KiB);
    expect(verdicts.bytes).toBeLessThanOrEqual(64 * KiB);
    expect(verdicts.clients).toBeLessThan(300);
    expect(verdicts.clients).toBeGreaterThan(0);
    // The newest clients are the ones kept.
    expect(t.sim.verdicts('client-299')).toHaveLength(1);
    expect(t.sim.verdicts('client-0')).toEqual([]);
  });
});

describe('the event history of evicted tasks (F16)', () => {
  let t: Awaited<ReturnType<typeof startSimWith>>;
  const BIG = 'x'.repeat(200 * KiB);
  beforeAll(
    async () =>
      (t = await startSimWith(
        {
          'big.yaml': `description: A large artifact.\nmatch:\n  - keywords: [big]\nsteps:\n  - artifact:\n      parts:\n        - text: ${BIG}\n  - status: completed\n`,
        },
        { speed: 0, retention: { maxStoreBytes: MiB, scopeShare: 1 } },
      )),
  );
  afterAll(() => t.close());

  it('keeps only a small copy of the large events of tasks the store let go', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.drive(
        request(t.url)
          .post('/message:send')
          .set('Content-Type', 'application/json')
          .send({ message: { role: 'ROLE_USER', parts: [{ text: 'big one' }], messageId: `big-${i}` } }),
      );
      expect(res.status).toBe(200);
      ids.push(res.body.task.id);
    }
    const evicted = ids.filter((id) => !t.sim.store.has(id));
    expect(evicted.length).toBeGreaterThan(5);
    const history = t.sim.events.history();
    const artifactsOf = (taskId: string) =>
      history.flatMap((e) =>
        e.type === 'task:event' && e.taskId === taskId && e.event.event.kind === 'artifact'
          ? [e.event.event.artifact]
          : [],
      );
    for (const id of evicted) {
      const artifacts = artifactsOf(id);
      expect(artifacts).toHaveLength(1);
      expect(artifacts[0]!.parts).toEqual([]);
    }
    const kept = ids.at(-1)!;
    expect(t.sim.store.has(kept)).toBe(true);
    expect(JSON.stringify(artifactsOf(kept)[0]!.parts).length).toBeGreaterThan(200 * KiB);
  });
});

describe('slow and many connections (F21)', () => {
  let t: TestSim;
  beforeAll(
    async () => (t = await startSim({ headersTimeout: 200, requestTimeout: 400, maxConnections: 4 })),
  );
  afterAll(() => t.close());

  it('answers 408 to a client that never finishes its headers', async () => {
    const { port } = new URL(t.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('GET /_sim/health HTTP/1.1\r\nHost: x\r\n'),
      );
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes connections past --max-connections at once, and serves again once they go', async () => {
    const { port } = new URL(t.url);
    const open = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<ReturnType<typeof connect>>((resolve) => {
            const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
          }),
      ),
    );
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('GET /_sim/health HTTP/1.1\r\nHost: x\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    expect(refused).toBe('');
    await Promise.all(open.map((socket) => new Promise<void>((resolve) => socket.end(() => resolve()))));
    await expect.poll(async () => (await request(t.url).get('/_sim/health')).status).toBe(200);
  });
});
