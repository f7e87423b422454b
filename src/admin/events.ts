/**
 * Everything that happens in the simulator, as one stream of events for the control plane: the
 * live feed and the dashboard read it. A bounded history lets a new watcher catch up first.
 */
import type { FaultRecord } from '../chaos/fault-log.js';
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

export class SimEventBus {
  private readonly recent: SimEvent[] = [];
  private counter = 0;
  private readonly listeners = new Set<(event: SimEvent) => void>();

  constructor(
    private readonly now: () => number,
    private readonly historySize = 1000,
  ) {}

  publish(body: SimEventBody): void {
    const event = { ...body, n: ++this.counter, at: new Date(this.now()).toISOString() } as SimEvent;
    this.recent.push(event);
    if (this.recent.length > this.historySize) this.recent.shift();
    for (const listener of this.listeners) listener(event);
  }

  /** Calls `listener` for every event from now on; returns the function that stops it. */
  subscribe(listener: (event: SimEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The most recent events, oldest first. */
  history(): readonly SimEvent[] {
    return this.recent;
  }
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
