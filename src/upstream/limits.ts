/**
 * How much of a real agent's answer the simulator reads, and to whom it sends what: the proxy is a
 * careful client. Past a limit the call fails with InvalidAgentResponseError (HTTP 502, JSON-RPC
 * -32006) whose ErrorInfo metadata names the limit (`limit`), and whatever was being read is let go.
 * docs/limits.md lists them all.
 */
import { A2AError } from '../domain/errors.js';

/** The largest JSON answer read whole: a card, a SendMessage or GetTask result, an error. */
export const MAX_AGENT_BODY_BYTES = 8 * 1024 * 1024;

/**
 * The largest SSE event (its `data` lines together), and the longest line of an event stream: a
 * line that never ends is refused here rather than buffered.
 */
export const MAX_AGENT_EVENT_BYTES = 1024 * 1024;

/**
 * The most items of a list in an answer (a task's artifacts, a message's or an artifact's parts),
 * and the most artifacts one proxied task may gather: the task keeps its artifacts in a list that
 * each new one is looked up in, so tens of thousands would stall the event loop for seconds.
 */
export const MAX_AGENT_LIST_LENGTH = 1000;

/** Sent on every call to the agent: the simulators a call has passed through, oldest first. */
export const HOP_HEADER = 'x-a2a-sim-hop';

/**
 * Headers that carry credentials. With the headers configured for the agent (`--proxy-header`),
 * they go only to the origin the proxy was pointed at.
 */
export const CREDENTIAL_HEADERS: readonly string[] = Object.freeze([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'cookie',
]);

/**
 * Origins besides the proxy URL's that may receive credentials when the agent's card places an
 * interface there (`https://agent.example.com`); none by default.
 */
export const CREDENTIAL_ORIGINS: readonly string[] = Object.freeze([]);

/**
 * The agent's answer went past one of the limits above.
 *
 * @example agentLimitExceeded('MAX_AGENT_EVENT_BYTES', 'http://agent/message:stream sent an SSE event larger than 1048576 bytes')
 */
export function agentLimitExceeded(limit: string, what: string): A2AError {
  return new A2AError('InvalidAgentResponseError', `Invalid agent response: ${what}`, {
    httpStatus: 502,
    metadata: { limit },
  });
}
