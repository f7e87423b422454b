/** What the bench measures; the startup, HTTP, SSE and stream-cost workloads are with their families. */
import type { StartupWorkload } from './families/startup.js';
import type { HttpWorkload } from './families/http-workloads.js';
import type { SseWorkload } from './families/sse.js';
import type { StreamCostWorkload } from './families/stream-cost.js';

/** A virtual day of mixed traffic through the retention limits, on the programmatic API. */
export interface SoakWorkload {
  kind: 'soak';
  name: 'soak';
  description: string;
}

export type Workload = HttpWorkload | SseWorkload | StreamCostWorkload | SoakWorkload | StartupWorkload;

export const SOAK: SoakWorkload = {
  kind: 'soak',
  name: 'soak',
  description:
    'a virtual day of mixed traffic (REST, JSON-RPC, SSE, GetTask, ListTasks) through the retention limits',
};
