/**
 * How a task's log keeps its events: a read gives back each event as it was appended, equal in
 * every field and in the order of its keys (a resumed stream's bytes are a live one's), while a
 * chunk that repeats the artifact before it is kept as its part alone.
 */
import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { Artifact, LoggedEvent, TaskEvent } from '../../src/domain/types.js';
import { EventLog } from '../../src/store/event-log.js';
import type { KeptEvent } from '../../src/store/kept-event.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

type Appended = Omit<LoggedEvent, 'seq'>;

const HEADER = { artifactId: 'a-1', name: 'report' };
/** A chunk as the engine makes it: the artifact's header, then its one part. */
const artifact = (i: number, header: object = HEADER): Artifact =>
  ({ ...header, parts: [{ kind: 'text', text: `chunk ${i}` }] }) as Artifact;
const chunk = (i: number, header: object = HEADER): TaskEvent => ({
  kind: 'artifact',
  artifact: artifact(i, header),
  append: i > 0,
  lastChunk: i % 7 === 6,
});
const status = (state: 'working' | 'completed'): TaskEvent => ({
  kind: 'status',
  status: { state, timestamp: '2026-12-08T00:00:00.000Z' },
});
const at = (atMs: number, event: TaskEvent, generation?: number): Appended => ({
  taskId: 't-1',
  contextId: 'c-1',
  atMs,
  event,
  generation,
});

/** Every key of `value`, nested, in order: what JSON.stringify writes besides the values. */
function keyPaths(value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.keys(value).flatMap((key) => [
    `${path}/${key}`,
    ...keyPaths((value as Record<string, unknown>)[key], `${path}/${key}`),
  ]);
}

function expectSameAsAppended(log: EventLog, appended: readonly LoggedEvent[]): void {
  const read = log.readAfter(0);
  expect(read.map((e) => JSON.stringify(e))).toEqual(appended.map((e) => JSON.stringify(e)));
  expect(read.map((e) => keyPaths(e))).toEqual(appended.map((e) => keyPaths(e)));
  expect(read).toEqual(appended);
}

describe('EventLog: what a read gives back', () => {
  it('gives back a stream of chunks and statuses as appended, each as a new object', () => {
    const log = new EventLog(1000);
    const appended = [
      log.append(at(1_765_000_000_000, status('working'), 1)),
      ...Array.from({ length: 50 }, (_, i) => log.append(at(1_765_000_000_100 + i * 100, chunk(i), i + 2))),
      log.append(at(1_765_000_010_000, status('completed'), 52)),
    ];
    expectSameAsAppended(log, appended);
    const read = log.readAfter(0);
    expect(read.filter((event, i) => event === appended[i])).toEqual([]);
  });

  it('gives back what differs from the chunk before: a new header, two parts, other keys, their order', () => {
    const log = new EventLog(1000);
    const metadata = { source: 'upstream' };
    const events: TaskEvent[] = [
      chunk(0),
      chunk(1),
      chunk(2, { artifactId: 'a-1', name: 'renamed' }),
      chunk(3, { name: 'renamed', artifactId: 'a-1' }),
      chunk(4, { artifactId: 'a-1', name: 'renamed', metadata }),
      chunk(5, { artifactId: 'a-1', name: 'renamed', metadata }),
      chunk(6, { artifactId: 'a-1', name: 'renamed', metadata: { ...metadata } }),
      {
        kind: 'artifact',
        artifact: {
          ...HEADER,
          parts: [
            { kind: 'text', text: 'one' },
            { kind: 'text', text: 'two' },
          ],
        },
        append: true,
        lastChunk: true,
      },
      { lastChunk: false, append: true, kind: 'artifact', artifact: artifact(8) } as TaskEvent,
      chunk(9),
    ];
    const appended = events.map((event, i) => log.append(at(100 + i, event)));
    expectSameAsAppended(log, appended);
  });

  it("gives back a proxied agent's artifact whose keys a merge would misread, and pollutes nothing", () => {
    const log = new EventLog(1000);
    const hostile = JSON.parse(
      '{"artifactId":"a-1","__proto__":{"polluted":true},"parts":[{"kind":"text","text":"x"}]}',
    ) as Artifact;
    const appended = [0, 1, 2].map((i) =>
      log.append(at(i, { kind: 'artifact', artifact: { ...hostile }, append: i > 0, lastChunk: i === 2 })),
    );
    expectSameAsAppended(log, appended);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('gives back times that are not whole, before the first event, and far from it', () => {
    const log = new EventLog(1000);
    const appended = [1.5e12, 1.5e12 - 7, 1.5e12 + 0.25, 0, 2 ** 53 - 1].map((atMs, i) =>
      log.append(at(atMs, chunk(i))),
    );
    expectSameAsAppended(log, appended);
  });

  it("gives back as it came an event of another task, which a replica's log could adopt", () => {
    const log = new EventLog(1000);
    const first = log.append(at(5, chunk(0)));
    const other = log.adopt({ ...at(6, chunk(1)), taskId: 't-2', seq: 2 });
    expect(log.readAfter(0)).toEqual([first, other]);
    expect(log.readAfter(1)[0]).toBe(other);
  });

  it('gives back any mix of events as appended, whatever their order (property)', () => {
    const header = fc.constantFrom<object>(HEADER, { artifactId: 'a-2' }, { name: 'n', artifactId: 'a-1' });
    const event = fc.oneof(
      fc.constantFrom(status('working'), status('completed')),
      fc
        .record({ i: fc.nat(99), header, parts: fc.integer({ min: 1, max: 2 }) })
        .map(({ i, header, parts }) => {
          const event = chunk(i, header);
          if (event.kind === 'artifact' && parts === 2)
            event.artifact.parts.push({ kind: 'text', text: 'more' });
          return event;
        }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(event, fc.integer({ min: -1e3, max: 1e6 }), fc.option(fc.nat())), {
          maxLength: 60,
        }),
        (list) => {
          const log = new EventLog(1000);
          const appended = list.map(([event, atMs, generation]) =>
            log.append(at(1.7e12 + atMs, event, generation ?? undefined)),
          );
          expectSameAsAppended(log, appended);
        },
      ),
    );
  });

  it('hands a follower the event as appended, and in a replay one rebuilt, each with its kept form', () => {
    const log = new EventLog(1000);
    const first = log.append(at(1, chunk(0)));
    const seen: [LoggedEvent, KeptEvent][] = [];
    log.follow(0, { onEvent: (event, kept) => seen.push([event, kept]) });
    const second = log.append(at(2, chunk(1)));
    expect(seen[0]![0]).toEqual(first);
    expect(seen[0]![0]).not.toBe(first);
    expect(seen[1]![0]).toBe(second);
    expect(seen.map(([, kept]) => kept.logged())).toEqual([first, second]);
  });
});

describe('EventLog: what it keeps alive', () => {
  it("keeps a chunk's part, not the event, artifact and list it came in", async () => {
    const log = new EventLog(1000);
    const appended = Array.from({ length: 20 }, (_, i) => log.append(at(i, chunk(i))));
    const wrappers = appended.slice(1).flatMap((logged) => {
      if (logged.event.kind !== 'artifact') throw new Error('a chunk');
      return [new WeakRef(logged), new WeakRef(logged.event), new WeakRef(logged.event.artifact)];
    });
    const parts = appended.map(
      (logged) => logged.event.kind === 'artifact' && new WeakRef(logged.event.artifact.parts[0]!),
    );
    appended.length = 0;
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(wrappers.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    expect(parts.filter((ref) => ref && ref.deref() !== undefined)).toHaveLength(20);
    expect(log.readAfter(0)).toHaveLength(20);
  });
});
