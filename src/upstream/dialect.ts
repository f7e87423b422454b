/**
 * How the simulator, acting as a client of a real A2A agent (the proxy), speaks one A2A dialect:
 * it encodes the requests it sends and decodes the answers it gets into domain values. The
 * dialects are v1.0 ProtoJSON (dialect-v1.ts, for both v1.0 bindings) and v0.3 JSON-RPC
 * (dialect-v03.ts); what an agent says wrong is an InvalidAgentResponseError naming the path.
 */
import { A2AError } from '../domain/errors.js';
import type { SendRequest, Task } from '../domain/types.js';
import type { UpstreamItem } from '../runtime/api.js';

export interface UpstreamDialect {
  /**
   * The SendMessageRequest params (JSON-RPC) or body (REST) for `request`; its push config is never
   * sent (webhooks stay with the simulator). `blocking`: whether the agent should answer only when
   * the turn ends.
   */
  sendParams(request: SendRequest, blocking: boolean): Record<string, unknown>;
  /** A SendMessage result: a Task or a Message. */
  sendResult(value: unknown): UpstreamItem;
  /** One streamed item (v1.0 StreamResponse / v0.3 kind-tagged result). */
  streamItem(value: unknown): UpstreamItem;
  /** A GetTask or CancelTask result. */
  task(value: unknown): Task;
  /**
   * A JSON-RPC error object as the A2AError of the same type (by code, then by ErrorInfo reason in
   * data when present), message kept.
   */
  rpcError(error: unknown): A2AError;
}

/**
 * The agent answered something the simulator cannot relay. HTTP 502: the fault is the upstream's,
 * and the simulator stands between it and the client as a gateway does.
 *
 * @example invalidAgentResponse('task.status.state: expected one of TASK_STATE_…, got "DONE"')
 */
export function invalidAgentResponse(what: string): A2AError {
  return new A2AError('InvalidAgentResponseError', `Invalid agent response: ${what}`, { httpStatus: 502 });
}
