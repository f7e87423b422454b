/**
 * How a task's log keeps an event between its append and the reads that replay it: the facts of a
 * {@link LoggedEvent} in fewer objects, made whole again when read.
 *
 * A stream of chunks is most of what a busy store holds. Logged as it is delivered, a chunk is six
 * objects kept for as long as its log keeps it (the entry, the box of its epoch time, the event,
 * the artifact, its parts list and the list's store, ~250 bytes besides the part itself), and a heap
 * that grows by them fills V8's old generation sooner: each full collection it then needs pauses
 * every stream (BENCHMARKS.md, run X). Kept here, a chunk that repeats the artifact of the last
 * chunk kept whole but for its one part is one object of 80 bytes, pointing at its part and at
 * that artifact. Times are kept as milliseconds since the log's first event, small integers V8
 * stores in the object itself. Reads build the event anew: equal in every field, keys in the same
 * order, so a resumed stream's bytes are a live one's.
 */
import type { Artifact, LoggedEvent, Part, TaskEvent } from '../domain/types.js';
import { merge } from '../lib/objects.js';

/** What the events of one log share, taken from its first event. */
export interface LogIds {
  readonly taskId: string;
  readonly contextId: string;
  /** The first event's time: every kept time counts from it. */
  readonly sinceMs: number;
}

/**
 * A logged event as it is handed out. A class, not an object literal: V8 decides once for each
 * literal whether its objects are made in the old generation (allocation-site pretenuring), and
 * never decides again. Under a burst of new streams a logged event outlives a scavenge, its
 * literal was pretenured, and every later event, which dies young now that the log keeps its own
 * form, became old-space garbage. Objects made by `new` are never pretenured.
 */
export class Logged implements LoggedEvent {
  constructor(
    readonly seq: number,
    readonly taskId: string,
    readonly contextId: string,
    readonly atMs: number,
    readonly event: TaskEvent,
    readonly generation: number | undefined,
  ) {}
}

export interface KeptEvent {
  readonly seq: number;
  /** Milliseconds after {@link LogIds.sinceMs}. */
  readonly afterMs: number;
  /** The event as it was logged, as a new object. */
  logged(): LoggedEvent;
}

/** An event of the log's task, kept without the ids every event of the log repeats. */
class KeptTaskEvent implements KeptEvent {
  constructor(
    private readonly ids: LogIds,
    readonly seq: number,
    readonly afterMs: number,
    private readonly generation: number | undefined,
    private readonly event: TaskEvent,
  ) {}

  logged(): LoggedEvent {
    const { taskId, contextId, sinceMs } = this.ids;
    return new Logged(this.seq, taskId, contextId, sinceMs + this.afterMs, this.event, this.generation);
  }
}

const APPEND = 1;
const LAST_CHUNK = 2;

/** A chunk whose artifact is `like`'s but for its one part. */
class KeptChunk implements KeptEvent {
  constructor(
    private readonly ids: LogIds,
    readonly seq: number,
    readonly afterMs: number,
    private readonly generation: number | undefined,
    private readonly like: Artifact,
    private readonly part: Part,
    private readonly flags: number,
  ) {}

  logged(): LoggedEvent {
    const { seq, generation, flags } = this;
    const { taskId, contextId, sinceMs } = this.ids;
    const event: TaskEvent = {
      kind: 'artifact',
      artifact: merge(this.like, { parts: [this.part] }),
      append: (flags & APPEND) !== 0,
      lastChunk: (flags & LAST_CHUNK) !== 0,
    };
    return new Logged(seq, taskId, contextId, sinceMs + this.afterMs, event, generation);
  }
}

/** An event kept as it came: one about another task or context, which no log of ours makes. */
class KeptWhole implements KeptEvent {
  readonly seq: number;
  constructor(
    readonly afterMs: number,
    private readonly whole: LoggedEvent,
  ) {
    this.seq = whole.seq;
  }

  logged(): LoggedEvent {
    return this.whole;
  }
}

/** The keys an artifact may have to serve as another's `like`: none that `merge` would misread. */
const ARTIFACT_KEYS = new Set(['artifactId', 'name', 'description', 'parts', 'metadata', 'extensions']);
/** A chunk's keys, in the order every maker of one writes them (engine, proxy, replica). */
const CHUNK_KEYS = ['kind', 'artifact', 'append', 'lastChunk'];

/**
 * Keeps a log's events: `keep` for each appended one, in seq order. It remembers the last
 * artifact kept whole, the `like` the chunks after it are kept against.
 */
export class EventKeeper {
  private like: Artifact | undefined;
  private likeKeys: string[] = [];

  keep(logged: LoggedEvent, ids: LogIds): KeptEvent {
    const { seq, event, generation } = logged;
    const afterMs = logged.atMs - ids.sinceMs;
    if (logged.taskId !== ids.taskId || logged.contextId !== ids.contextId)
      return new KeptWhole(afterMs, logged);
    if (event.kind !== 'artifact') return new KeptTaskEvent(ids, seq, afterMs, generation, event);
    const part = this.partOf(event);
    if (part) {
      const flags = (event.append ? APPEND : 0) | (event.lastChunk ? LAST_CHUNK : 0);
      return new KeptChunk(ids, seq, afterMs, generation, this.like!, part, flags);
    }
    const keys = Object.keys(event.artifact);
    if (keys.every((key) => ARTIFACT_KEYS.has(key))) {
      this.like = event.artifact;
      this.likeKeys = keys;
    } else this.like = undefined;
    return new KeptTaskEvent(ids, seq, afterMs, generation, event);
  }

  /** The chunk's one part, when everything else in it is what a read rebuilds from {@link like}. */
  private partOf(event: Extract<TaskEvent, { kind: 'artifact' }>): Part | undefined {
    const { like, likeKeys } = this;
    const { artifact } = event;
    if (!like || artifact.parts.length !== 1 || !sameKeys(Object.keys(event), CHUNK_KEYS)) return undefined;
    if (typeof event.append !== 'boolean' || typeof event.lastChunk !== 'boolean') return undefined;
    const keys = Object.keys(artifact);
    if (!sameKeys(keys, likeKeys)) return undefined;
    for (const key of keys) {
      if (key !== 'parts' && artifact[key as keyof Artifact] !== like[key as keyof Artifact])
        return undefined;
    }
    return artifact.parts[0];
  }
}

function sameKeys(keys: readonly string[], expected: readonly string[]): boolean {
  return keys.length === expected.length && keys.every((key, i) => key === expected[i]);
}
