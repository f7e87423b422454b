/**
 * The A2A behaviour every binding must show, written once in v1.0 terms and run through each driver
 * (raw REST, raw JSON-RPC in v1.0 and v0.3, the official SDK client on both v1.0 transports and as
 * a v0.3 peer) against a real server. A case needing an operation a binding lacks is skipped, with
 * the reason in its title.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { RETURN_IMMEDIATELY, v1Send } from '../helpers/wire.js';
import { DriverError, type Driver, type DriverFactory, type Frame, type Unsupported } from './drivers.js';

const stateOf = (frame: Frame | undefined): string | undefined =>
  frame?.payload.task?.status.state ?? frame?.payload.statusUpdate?.status.state;

const textOf = (message: any): string => message?.parts?.map((p: any) => p.text ?? '').join('') ?? '';

async function expectError(work: Promise<unknown>, type: string): Promise<DriverError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected ${type}`).toBeInstanceOf(DriverError);
  expect((error as DriverError).type).toBe(type);
  return error as DriverError;
}

/**
 * Runs every case through the driver `makeDriver` makes for the server `start` starts: by default a
 * simulator listening on its own (test/bindings/express-mount.test.ts passes one mounted in an app).
 */
export function conformanceCases(
  name: string,
  makeDriver: DriverFactory,
  unsupported: Unsupported = {},
  start: () => Promise<TestSim> = () => startSim(),
): void {
  describe(name, () => {
    let t: TestSim;
    let d: Driver;
    /**
     * `it` for a case that needs ListTasks. A binding that has none is held to refusing it, as the
     * method it does not know (its reason in the title), so every case runs on every binding.
     */
    const itListing = (title: string, body: () => Promise<void>) =>
      unsupported.listTasks
        ? it(`refuses listing as a method it does not have (${unsupported.listTasks})`, async () => {
            // The SDK's v0.3 client reports it as a transport error naming the JSON-RPC error; its
            // v0.3 HTTP+JSON transport refuses it itself, as an operation v0.3 REST lacks.
            await expect(t.drive(d.listTasks({}))).rejects.toThrow(
              /MethodNotFoundError|Method not found|no equivalent in v0.3/,
            );
          })
        : it(title, body);
    beforeAll(async () => {
      t = await start();
      d = await makeDriver(t.url);
    });
    afterAll(() => t.close());

    it('answers the weather question with a completed task and a Weather Report artifact (seed 000)', async () => {
      const { task } = await t.drive(d.send(v1Send('What is the weather today?')));
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(task.contextId).toMatch(/^[0-9a-f-]{36}$/);
      expect(task.artifacts).toHaveLength(1);
      expect(task.artifacts[0].name).toBe('Weather Report');
      expect(task.artifacts[0].parts[0].text).toMatch(/^Today will be [a-z ]+ with a high of \d+°F$/);
      expect(task.status.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    it('books a flight: input-required, then the follow-up with the taskId completes it (seed 000)', async () => {
      const first = await t.drive(d.send(v1Send('Book me a flight')));
      const task = first.task;
      expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(task.status.message.role).toBe('ROLE_AGENT');
      expect(textOf(task.status.message)).toBe(
        'I need more details. Where would you like to fly from and to?',
      );

      const second = await t.drive(d.send(v1Send('From San Francisco to New York', { taskId: task.id })));
      const done = second.task;
      expect(done.id).toBe(task.id);
      expect(done.contextId).toBe(task.contextId);
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
      const [itinerary] = done.artifacts;
      expect(
        itinerary.parts.map((p: any) => Object.keys(p).find((k) => ['text', 'data'].includes(k))),
      ).toEqual(['text', 'data']);
      expect(itinerary.parts[0].text).toContain('San Francisco');
      expect(itinerary.parts[1].data).toMatchObject({ from: 'San Francisco', to: 'New York' });
      expect(itinerary.parts[1].data.flights.length).toBeGreaterThan(0);
      expect(done.history.filter((m: any) => m.role === 'ROLE_USER').map(textOf)).toEqual([
        'Book me a flight',
        'From San Francisco to New York',
      ]);
    });

    it('rejects a follow-up whose contextId differs from the task, leaving the task as it was', async () => {
      const { task } = await t.drive(d.send(v1Send('Book me a flight')));
      await expectError(
        d.send(v1Send('From Paris to Rome', { taskId: task.id, contextId: 'some-other-context' })),
        'InvalidParamsError',
      );
      const after = await d.getTask(task.id);
      expect(after.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(after.history).toEqual(task.history);
    });

    it('answers TaskNotFoundError for a message naming an unknown taskId, and for get, cancel and subscribe', async () => {
      await expectError(d.send(v1Send('hello', { taskId: 'no-such-task' })), 'TaskNotFoundError');
      await expectError(d.getTask('no-such-task'), 'TaskNotFoundError');
      await expectError(d.cancel('no-such-task'), 'TaskNotFoundError');
      await expectError(d.subscribe('no-such-task'), 'TaskNotFoundError');
    });

    it('fails the failure scenario with an explanatory status message', async () => {
      const { task } = await t.drive(d.send(v1Send('Please fail this task')));
      expect(task.status.state).toBe('TASK_STATE_FAILED');
      expect(textOf(task.status.message)).toMatch(/simulated failure/);
    });

    it('replies to a greeting with a direct Message, not a task', async () => {
      const result = await t.drive(d.send(v1Send('Hello')));
      expect(result.task).toBeUndefined();
      expect(result.message.role).toBe('ROLE_AGENT');
      expect(textOf(result.message)).toMatch(/simulated A2A agent/);
    });

    it('pauses in auth-required and completes once the user answers', async () => {
      const { task } = await t.drive(d.send(v1Send('Check my calendar')));
      expect(task.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
      const { task: done } = await t.drive(d.send(v1Send('signed in', { taskId: task.id })));
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    });

    it('rejects a request it will not carry out', async () => {
      const { task } = await t.drive(d.send(v1Send("Hack my neighbour's wifi")));
      expect(task.status.state).toBe('TASK_STATE_REJECTED');
    });

    it('refuses to continue a terminal task (UnsupportedOperationError) and to cancel it (TaskNotCancelableError)', async () => {
      const { task } = await t.drive(d.send(v1Send('What is the weather today?')));
      await expectError(d.send(v1Send('and tomorrow?', { taskId: task.id })), 'UnsupportedOperationError');
      await expectError(d.cancel(task.id), 'TaskNotCancelableError');
      await expectError(d.subscribe(task.id), 'UnsupportedOperationError');
    });

    it('streams the weather task: Task first, then working, the artifact and completed, then closes', async () => {
      const stream = await d.stream(v1Send('What is the weather today?'));
      const frames = await t.drive(stream.rest());
      expect(frames.map((f) => Object.keys(f.payload)[0])).toEqual([
        'task',
        'statusUpdate',
        'artifactUpdate',
        'statusUpdate',
      ]);
      expect(frames.map(stateOf).filter(Boolean)).toEqual([
        'TASK_STATE_SUBMITTED',
        'TASK_STATE_WORKING',
        'TASK_STATE_COMPLETED',
      ]);
      const taskId = frames[0]!.payload.task.id;
      for (const f of frames.slice(1)) expect(Object.values(f.payload)[0]).toMatchObject({ taskId });
      if (d.seesEventIds) expect(frames.map((f) => f.id)).toEqual(['1', '2', '3', '4']);
    });

    it('streams both turns of a flight booking, each opening with the Task', async () => {
      const first = await t.drive((await d.stream(v1Send('Book me a flight'))).rest());
      expect(first.map(stateOf)).toEqual([
        'TASK_STATE_SUBMITTED',
        'TASK_STATE_WORKING',
        'TASK_STATE_INPUT_REQUIRED',
      ]);
      const taskId = first[0]!.payload.task.id;
      const second = await t.drive(
        (await d.stream(v1Send('From San Francisco to New York', { taskId }))).rest(),
      );
      expect(Object.keys(second[0]!.payload)).toEqual(['task']);
      expect(second[0]!.payload.task.history.at(-1).parts[0].text).toBe('From San Francisco to New York');
      expect(second.map(stateOf).filter(Boolean).slice(1)).toEqual([
        'TASK_STATE_WORKING',
        'TASK_STATE_COMPLETED',
      ]);
      expect(second.filter((f) => f.payload.artifactUpdate)).toHaveLength(1);
      if (d.seesEventIds) expect(second.map((f) => Number(f.id))).toEqual([4, 5, 6, 7]);
    });

    it('streams the failure scenario to its FAILED status', async () => {
      const frames = await t.drive((await d.stream(v1Send('Please fail this task'))).rest());
      expect(frames.map(stateOf).filter(Boolean)).toEqual([
        'TASK_STATE_SUBMITTED',
        'TASK_STATE_WORKING',
        'TASK_STATE_FAILED',
      ]);
    });

    it('streams a greeting as one Message, then closes', async () => {
      // Headers wait for the first item (peek, then commit), and the reply comes 100 ms in.
      const frames = await t.drive(d.stream(v1Send('Hello')).then((stream) => stream.rest()));
      expect(frames).toHaveLength(1);
      expect(frames[0]!.payload.message.role).toBe('ROLE_AGENT');
      if (d.seesEventIds) expect(frames[0]!.id).toBeUndefined();
    });

    it('streams the long report in chunks, at least one update every 5 s, and completes without a cancel', async () => {
      const stream = await d.stream(v1Send('Write a long report on climate change'));
      const start = t.clock.now();
      const frames = await t.drive(stream.rest());
      const chunks = frames.filter((f) => f.payload.artifactUpdate).map((f) => f.payload.artifactUpdate);
      expect(chunks.length).toBeGreaterThanOrEqual(10);
      expect(chunks[0].artifact.parts[0].text).toBe('# Climate Change Report\n\n');
      // A client that loses `append` is held to the rest (its reason is in drivers.ts).
      if (!unsupported.artifactAppend) {
        expect(chunks[0].append ?? false).toBe(false);
        expect(chunks.slice(1).every((c: any) => c.append === true)).toBe(true);
      }
      expect(chunks.at(-1).lastChunk).toBe(true);
      expect(new Set(chunks.map((c: any) => c.artifact.artifactId)).size).toBe(1);
      expect(stateOf(frames.at(-1))).toBe('TASK_STATE_COMPLETED');
      const elapsed = t.clock.now() - start;
      expect(elapsed).toBeGreaterThanOrEqual(25_000);
      expect(elapsed).toBeLessThanOrEqual(35_000);
      const times = frames.flatMap((f) =>
        f.payload.statusUpdate ? [Date.parse(f.payload.statusUpdate.status.timestamp)] : [],
      );
      expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(25_000);

      const task = await d.getTask(frames[0]!.payload.task.id);
      const report = task.artifacts[0].parts.map((p: any) => p.text).join('');
      expect(report.startsWith('# Climate Change Report')).toBe(true);
      expect(task.artifacts[0].parts).toHaveLength(chunks.length);
    });

    it('accepts a cancel at once but keeps working for a few seconds, then cancels (slow-cancel)', async () => {
      const stream = await d.stream(v1Send('Write a long report on climate change'));
      const first = await stream.next();
      const taskId = first!.payload.task.id;
      t.clock.advance(5_000);
      const accepted = await d.cancel(taskId);
      expect(accepted.status.state).toBe('TASK_STATE_WORKING');

      t.clock.advance(1_500);
      expect((await d.getTask(taskId)).status.state).toBe('TASK_STATE_WORKING');
      t.clock.advance(3_000);
      const canceled = await d.getTask(taskId);
      expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
      expect(textOf(canceled.status.message)).toMatch(/canceled/i);

      const frames = await stream.rest();
      expect(stateOf(frames.at(-1))).toBe('TASK_STATE_CANCELED');
      expect(frames.filter((f) => f.payload.artifactUpdate).length).toBeGreaterThanOrEqual(3);
    });

    it('subscribes to a running task: the current Task first, then live events until it ends', async () => {
      const { task } = await d.send(v1Send('Write a long report on climate change', {}, RETURN_IMMEDIATELY));
      expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
      t.clock.advance(3_000);
      const a = await d.subscribe(task.id);
      const b = await d.subscribe(task.id);
      const [fa, fb] = await t.drive(Promise.all([a.rest(), b.rest()]));
      expect(Object.keys(fa[0]!.payload)).toEqual(['task']);
      expect(fa[0]!.payload.task.status.state).toBe('TASK_STATE_WORKING');
      expect(fa[0]!.payload.task.artifacts[0].parts.length).toBeGreaterThan(0);
      expect(stateOf(fa.at(-1))).toBe('TASK_STATE_COMPLETED');
      expect(fb.map((f) => f.payload)).toEqual(fa.map((f) => f.payload));
      if (d.seesEventIds) {
        expect(fa[0]!.id).toBeUndefined();
        const ids = fa.slice(1).map((f) => Number(f.id));
        expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
      }
    });

    itListing('pages through ListTasks, newest first, with totalSize and an empty last token', async () => {
      const contextId = `list-${name}`;
      const created: string[] = [];
      for (let i = 0; i < 5; i++) {
        const { task } = await t.drive(d.send(v1Send(`What is the weather today, ${i}?`, { contextId })));
        created.push(task.id);
      }
      const seen: string[] = [];
      let pageToken = '';
      const pages: any[] = [];
      do {
        const page = await d.listTasks({ contextId, pageSize: 2, ...(pageToken && { pageToken }) });
        pages.push(page);
        seen.push(...page.tasks.map((task: any) => task.id));
        pageToken = page.nextPageToken ?? '';
      } while (pageToken);
      expect(pages.map((p) => p.tasks.length)).toEqual([2, 2, 1]);
      expect(pages.every((p) => p.totalSize === 5 && p.pageSize === 2)).toBe(true);
      expect(seen).toEqual([...created].reverse());
      expect(pages[0].tasks[0].artifacts).toBeUndefined();

      const withArtifacts = await d.listTasks({ contextId, includeArtifacts: true, pageSize: 100 });
      expect(withArtifacts.tasks).toHaveLength(5);
      expect(withArtifacts.tasks.every((task: any) => task.artifacts?.[0]?.name === 'Weather Report')).toBe(
        true,
      );
      const completed = await d.listTasks({ contextId, status: 'TASK_STATE_COMPLETED' });
      expect(completed.totalSize).toBe(5);
      const working = await d.listTasks({ contextId, status: 'TASK_STATE_WORKING' });
      expect(working.tasks ?? []).toEqual([]);
      expect(working.totalSize ?? 0).toBe(0);
    });

    it('limits history with historyLength (0 leaves it out)', async () => {
      const { task } = await t.drive(d.send(v1Send('Book me a flight')));
      expect(task.history.length).toBe(2);
      expect((await d.getTask(task.id, 1)).history.map(textOf)).toEqual([
        'I need more details. Where would you like to fly from and to?',
      ]);
      if (!unsupported.historyLengthZero) {
        expect((await d.getTask(task.id, 0)).history ?? []).toEqual([]);
      }
    });
  });
}
