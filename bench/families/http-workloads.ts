/**
 * The HTTP send workloads: the four servers speak the same wire format, so each workload sends
 * byte-identical requests to each (`[<id>]` becomes a fresh id per request).
 */
import type { Workload } from '../lib/family.js';
import { REST_SEND_BODY, V1_HEADERS, V1_MESSAGE, WEATHER } from '../lib/requests.js';

export interface HttpWorkload extends Workload {
  kind: 'http';
  connections: number;
  method: 'GET' | 'POST';
  /** `{taskId}` is replaced by a task created just before the run. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** A message:send: the 2.0× sdk / p99 ≤ sdk / 1.25× express (and stretch 0.5× node) targets apply. */
  isSend: boolean;
  /** More `serve` flags for the simulator in this workload, e.g. `--no-metrics`. */
  simulatorFlags?: string[];
  /** Measured to explain another row; no target. */
  diagnostic?: boolean;
  /** Why an answer is not the completed task expected, or undefined when it is. */
  check(answer: unknown, taskId?: string): string | undefined;
}

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (value && typeof value === 'object' ? (value as Obj) : {});

function checkV1Task(task: unknown): string | undefined {
  const t = obj(task);
  const state = obj(t.status).state;
  if (typeof t.id !== 'string') return 'no task id';
  if (state !== 'TASK_STATE_COMPLETED') return `state ${String(state)}, not TASK_STATE_COMPLETED`;
  if (!Array.isArray(t.artifacts) || t.artifacts.length !== 1) return 'not exactly one artifact';
  return undefined;
}

function restSend(connections: number): HttpWorkload {
  return {
    kind: 'http',
    name: `rest-send-c${connections}`,
    description: `REST POST /message:send (weather, blocking, completed), ${connections} connection(s)`,
    connections,
    method: 'POST',
    path: '/message:send',
    headers: V1_HEADERS,
    body: REST_SEND_BODY,
    isSend: true,
    check: (answer) => checkV1Task(obj(answer).task),
  };
}

/** Not a target: rest-send-c64 with the simulator started with `flags` (the comparators keep nothing either way). */
function sendWithout(suffix: string, flags: string[]): HttpWorkload {
  return {
    ...restSend(64),
    name: `rest-send-c64-${suffix}`,
    description: `diagnostic: rest-send-c64 with the simulator at ${flags.join(' ')}`,
    simulatorFlags: flags,
    isSend: false,
    diagnostic: true,
  };
}

export const HTTP_WORKLOADS: HttpWorkload[] = [
  restSend(1),
  restSend(16),
  restSend(64),
  {
    // Not a target: the same work as rest-send-c64, but no two requests have the same text. The
    // simulator seeds a task from its parts; until 7eeea49 it probed one seed per earlier identical
    // request still stored, so identical requests cost more the more of them came before
    // (BENCHMARKS.md, "What changed"). This row shows whether that is back.
    ...restSend(64),
    name: 'rest-send-distinct-c64',
    description: 'diagnostic: rest-send-c64 with a distinct text per request (still the weather scenario)',
    body: JSON.stringify({ message: { ...V1_MESSAGE, parts: [{ text: `${WEATHER} #[<id>]` }] } }),
    isSend: false,
    diagnostic: true,
  },
  // The records every call leaves, each turned off on its own line, then all at once: what each
  // costs (BENCHMARKS.md, runs J and M).
  sendWithout('unlogged', ['--log-level', 'silent']),
  sendWithout('no-metrics', ['--no-metrics']),
  sendWithout('unjournaled', ['--journal-size', '0']),
  sendWithout('unjudged', ['--no-judge']),
  sendWithout('bare', ['--log-level', 'silent', '--no-metrics', '--journal-size', '0', '--no-judge']),
  {
    kind: 'http',
    name: 'jsonrpc-v1-send-c64',
    description: 'JSON-RPC 1.0 SendMessage (A2A-Version: 1.0), 64 connections',
    connections: 64,
    method: 'POST',
    path: '/',
    headers: V1_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: '[<id>]',
      method: 'SendMessage',
      params: { message: V1_MESSAGE },
    }),
    isSend: true,
    check: (answer) => checkV1Task(obj(obj(answer).result).task),
  },
  {
    kind: 'http',
    name: 'jsonrpc-v03-send-c64',
    description: 'JSON-RPC 0.3 message/send (no A2A-Version header), 64 connections',
    connections: 64,
    method: 'POST',
    path: '/',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: '[<id>]',
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          role: 'user',
          parts: [{ kind: 'text', text: WEATHER }],
          messageId: 'bench-[<id>]',
        },
      },
    }),
    isSend: true,
    check: (answer) => {
      const result = obj(obj(answer).result);
      if (result.kind !== 'task') return `result kind ${String(result.kind)}, not task`;
      const state = obj(result.status).state;
      return state === 'completed' ? undefined : `state ${String(state)}, not completed`;
    },
  },
  {
    kind: 'http',
    name: 'rest-get-c64',
    description: 'REST GET /tasks/{id} of one completed task, 64 connections',
    connections: 64,
    method: 'GET',
    path: '/tasks/{taskId}',
    headers: { 'A2A-Version': '1.0' },
    isSend: false,
    check: (answer, taskId) => (obj(answer).id === taskId ? checkV1Task(answer) : 'not the task asked for'),
  },
];
