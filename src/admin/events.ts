/**
 * Everything that happens in the simulator, as one stream of events for the control plane: the
 * live feed and the dashboard read it. A bounded history lets a new watcher catch up first.
 */
import type { FaultRecord } from '../chaos/fault-log.js';
import { merge } from '../lib/objects.js';
import type { LoggedEvent } from '../domain/types.js';
import type { DeliveryRecord } from '../push/delivery-log.js';
import type { JournalEntry } from './journal.js';

/** Where a task lives, read from its scope (`agent:explore|workspace:ws-1`, `tenant:acme`, or the root). */
export interface TaskPlace {
  /** The defined agent, or undefined for the root agent. */
  agent?: string;
  workspace?: string;
  tenant?: string;
}

export type SimEventBody =
  | ({ type: 'task:created'; taskId: string; contextId: string; scenario: string } & TaskPlace)
  | ({ type: 'task:event'; taskId: string; contextId: string; event: LoggedEvent } & TaskPlace)
  | { type: 'stream:opened' | 'stream:closed'; request: number; taskId?: string }
  | { type: 'chaos:fault'; fault: FaultRecord }
  | { type: 'push:attempt'; delivery: DeliveryRecord }
  | { type: 'request:received'; request: JournalEntry };

/** One event: `n` orders them, `at` is clock time (ISO 8601). */
export type SimEvent = SimEventBody & { n: number; at: string };

/**
 * A body, or how to make it: made only if a watcher is listening or reads the history, so a
 * simulator nobody watches pays one small record per event. A maker must give the same body
 * whenever it is called (build it from values that do not change).
 */
export type SimEventSource = SimEventBody | (() => SimEventBody);

interface Published {
  n: number;
  atMs: number;
  source: SimEventSource;
  event?: SimEvent;
}

export class SimEventBus {
  /** A ring: `recent[(n - 1) % historySize]` holds event n while it is among the newest. */
  private readonly recent: Published[] = [];
  private counter = 0;
  private readonly listeners = new Set<(event: SimEvent) => void>();

  constructor(
    private readonly now: () => number,
    private readonly historySize = 1000,
  ) {}

  publish(source: SimEventSource): void {
    const published: Published = { n: ++this.counter, atMs: this.now(), source };
    this.recent[(published.n - 1) % this.historySize] = published;
    if (this.listeners.size === 0) return;
    const event = materialize(published);
    for (const listener of this.listeners) listener(event);
  }

  /** Calls `listener` for every event from now on; returns the function that stops it. */
  subscribe(listener: (event: SimEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The most recent events, oldest first. */
  history(): SimEvent[] {
    const oldest = Math.max(1, this.counter - this.historySize + 1);
    const events: SimEvent[] = [];
    for (let n = oldest; n <= this.counter; n++) {
      events.push(materialize(this.recent[(n - 1) % this.historySize]!));
    }
    return events;
  }
}

function materialize(published: Published): SimEvent {
  if (!published.event) {
    const { n, atMs, source } = published;
    const body = typeof source === 'function' ? source() : source;
    published.event = merge(body, { n, at: new Date(atMs).toISOString() }) as SimEvent;
  }
  return published.event;
}

export function placeOf(scope: string): TaskPlace {
  const place: TaskPlace = {};
  for (const part of scope.split('|')) {
    const [key, value] = part.split(/:(.*)/s);
    if (value === undefined) continue;
    if (key === 'agent') place.agent = value;
    else if (key === 'workspace') place.workspace = value;
    else if (key === 'tenant') place.tenant = value;
  }
  return place;
}
