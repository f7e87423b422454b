/**
 * A log line per request, written when its response is done (a stream's when the stream ends),
 * from its journal entry: what was asked, of which agent, how it was read and answered, the task
 * and scenario it touched and the faults chaos applied. WireMock's request log, on stderr.
 */
import type { LogFields, Logger } from '../lib/log.js';
import type { JournalEntry } from './journal.js';

/** `taskId` → the scenario the task plays, if the task is still stored. */
type ScenarioOf = (taskId: string) => string | undefined;

export function logRequest(logger: Logger, entry: JournalEntry, scenarioOf: ScenarioOf): void {
  if (logger.isEnabled && !logger.isEnabled('info')) return;
  const { method, path, status, durationMs = 0, streamed } = entry;
  const answer =
    status === 0 || status === undefined
      ? `closed without an answer after ${durationMs} ms`
      : streamed
        ? `${status}, stream ended after ${durationMs} ms`
        : `${status} in ${durationMs} ms`;
  const fields: LogFields = {
    request: entry.n,
    binding: entry.binding,
    operation: entry.operation,
    agent: entry.agent,
    workspace: entry.workspace,
    tenant: entry.tenant,
    taskId: entry.taskId,
    scenario: entry.taskId === undefined ? undefined : scenarioOf(entry.taskId),
    status,
    durationMs,
    streamed: streamed === true ? true : undefined,
    faults: entry.faults.length > 0 ? entry.faults : undefined,
  };
  logger.info(`${method} ${path} ${answer}`, fields);
}
