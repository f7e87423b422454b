/** What the bench measures; the startup, HTTP and SSE workloads are with their families. */
import type { StartupWorkload } from './families/startup.js';
import type { HttpWorkload } from './families/http-workloads.js';
import type { SseWorkload } from './families/sse.js';

/**
 * Streams whose every event either appends one artifact chunk (bench-append) or is a status update
 * with a message (bench-status), 1000 events 10 ms apart after a lead-in of 500 that leave the task
 * as it is: server CPU per event early in the task (events 2–200) against late (801–1000). The
 * target: the same, whatever the task's size.
 */
export interface StreamCostWorkload {
  kind: 'stream-cost';
  name: string;
  description: string;
  scenario: 'bench-append' | 'bench-status';
  streams: number;
}

/** A virtual day of mixed traffic through the retention limits, on the programmatic API. */
export interface SoakWorkload {
  kind: 'soak';
  name: 'soak';
  description: string;
}

export type Workload = HttpWorkload | SseWorkload | StreamCostWorkload | SoakWorkload | StartupWorkload;

export function streamCostWorkloads(streams: number): StreamCostWorkload[] {
  return [
    {
      kind: 'stream-cost',
      name: 'sse-append',
      description: `${streams} streams, each event appends one artifact chunk (1000 chunks, one every 10 ms, after 500 bare status updates)`,
      scenario: 'bench-append',
      streams,
    },
    {
      kind: 'stream-cost',
      name: 'sse-status',
      description: `${streams} streams, each event a status update with a message (1000, one every 10 ms, after 500 without)`,
      scenario: 'bench-status',
      streams,
    },
  ];
}

export const SOAK: SoakWorkload = {
  kind: 'soak',
  name: 'soak',
  description:
    'a virtual day of mixed traffic (REST, JSON-RPC, SSE, GetTask, ListTasks) through the retention limits',
};
