/**
 * A log line per request, written when its response is done (a stream's when the stream ends),
 * from its exchange record: what was asked, of which agent, how it was read and answered, the task
 * and scenario it touched and the faults chaos applied. WireMock's request log, on stderr.
 */
import type { LogFields, Logger } from '../lib/log.js';
import type { Exchange } from '../calls/exchange.js';

/** `taskId` → the scenario the task plays, if the task is still stored. */
type ScenarioOf = (taskId: string) => string | undefined;

export function logRequest(logger: Logger, exchange: Exchange, scenarioOf: ScenarioOf): void {
  if (logger.isEnabled && !logger.isEnabled('info')) return;
  const { method, path, status, durationMs = 0, streamed, read, taskId } = exchange;
  const scope = read?.scope;
  const answer =
    status === 0 || status === undefined
      ? `closed without an answer after ${durationMs} ms`
      : streamed
        ? `${status}, stream ended after ${durationMs} ms`
        : `${status} in ${durationMs} ms`;
  const fields: LogFields = {
    request: exchange.n,
    binding: read?.binding,
    operation: read?.operation,
    agent: scope?.agent,
    workspace: scope?.workspace,
    tenant: scope?.tenant,
    taskId,
    scenario: taskId === undefined ? undefined : scenarioOf(taskId),
    status,
    durationMs,
    streamed: streamed === true ? true : undefined,
    faults: exchange.faults.length > 0 ? exchange.faults : undefined,
    moreFaults: exchange.moreFaults > 0 ? exchange.moreFaults : undefined,
    traceId: exchange.trace?.traceId,
    spanId: exchange.trace?.spanId,
  };
  logger.info(`${method} ${path} ${answer}`, fields);
}
