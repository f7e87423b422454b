/**
 * Keeps one proxied task's log in step with the real agent: every item the agent streams becomes an
 * event of the task's own log, so resume, listing, the journal, the feed and chaos work on it as on
 * a scripted task. When the agent's stream ends before the turn does (cut, or an agent that does not
 * stream), the run follows the task again upstream, by resubscribing or by polling; when that too
 * fails, the streams that wait on it end with the error, never silently.
 */
import { A2AError } from '../domain/errors.js';
import { isPaused, isTerminal } from '../domain/lifecycle.js';
import type { Artifact, Message, Task, TaskStatus } from '../domain/types.js';
import type { Clock } from '../lib/clock.js';
import type { TaskRecord, TaskStore } from '../store/task-store.js';
import type { UpstreamAgent, UpstreamCall, UpstreamItem } from './api.js';
import { untilTurnEnds } from './stream.js';

export interface ProxyRunOptions {
  upstream: UpstreamAgent;
  store: TaskStore;
  clock: Clock;
}

/** Waits between attempts to follow a task again: short first, then up to a few seconds. */
const RETRY_MS = [100, 250, 500, 1000, 2000, 5000] as const;
/** Attempts in a row that may fail before the run gives up and reports the error. */
const MAX_FAILURES = 3;

export class ProxyRun {
  private relaying = false;
  private stopped = false;
  private readonly breakListeners = new Set<(error: A2AError) => void>();

  constructor(
    readonly record: TaskRecord,
    private call: UpstreamCall,
    private readonly options: ProxyRunOptions,
  ) {}

  get turnEnded(): boolean {
    return isPaused(this.record.status.state);
  }

  /** Relays the rest of an answer already begun; then follows the task until the turn ends. */
  relay(items: AsyncIterator<UpstreamItem>, call: UpstreamCall): void {
    this.call = call;
    this.relaying = true;
    void this.drain(items)
      .then(() => this.follow())
      .finally(() => (this.relaying = false));
  }

  /** A subscriber arrived while nothing follows the task upstream: follow it again. */
  ensureFollowing(): void {
    if (this.relaying || this.turnEnded || this.stopped) return;
    this.relaying = true;
    void this.follow().finally(() => (this.relaying = false));
  }

  /** Whether a GetTask answer may be written into the log (not while a stream writes it). */
  get idle(): boolean {
    return !this.relaying;
  }

  /** Resolves when the turn after `fromSeq` ends; rejects when the agent cannot be followed. */
  untilTurnEnds(fromSeq: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const onBreak = (error: A2AError) => reject(error);
      this.breakListeners.add(onBreak);
      void untilTurnEnds(this.record, fromSeq).then(() => {
        this.breakListeners.delete(onBreak);
        resolve();
      });
    });
  }

  /** Called with the error when the agent can no longer be followed; returns what stops it. */
  onBreak(listener: (error: A2AError) => void): () => void {
    this.breakListeners.add(listener);
    return () => this.breakListeners.delete(listener);
  }

  stop(): void {
    this.stopped = true;
  }

  /** One item of the agent's answer, as events of the task's log. */
  apply(item: UpstreamItem): void {
    if (this.stopped) return;
    switch (item.kind) {
      case 'task':
        return this.reconcile(item.task);
      case 'status':
        if (!sameStatus(this.record.status, item.status))
          this.append({ kind: 'status', status: item.status });
        return;
      case 'artifact':
        return this.append({
          kind: 'artifact',
          artifact: item.artifact,
          append: item.append,
          lastChunk: item.lastChunk,
        });
      case 'message':
        // A Message inside a task's stream has no place in the task's log (§3.1.2).
        return;
    }
  }

  /** A Task as the agent sees it: whatever it has that the log lacks becomes events. */
  reconcile(task: Task): void {
    const known = new Set(this.record.task.artifacts.map((a) => a.artifactId));
    for (const artifact of task.artifacts) {
      if (!known.has(artifact.artifactId)) this.appendArtifact(artifact);
    }
    // A snapshot may restamp the status it is in: only a new state or message is news.
    const { status } = this.record;
    if (status.state !== task.status.state || status.message?.messageId !== task.status.message?.messageId) {
      this.append({ kind: 'status', status: task.status });
    }
  }

  /** Opens a follow-up turn: the task as it is, the user's answer included (§3.1.2). */
  openTurn(answer: Message, first: UpstreamItem | undefined): void {
    // A snapshot is a fresh copy: adding the answer to it changes nothing else.
    const snapshot = this.record.task;
    snapshot.history.push(answer);
    this.options.store.append(this.record, { kind: 'task', task: snapshot }, this.options.clock.now());
    if (first) this.apply(first);
  }

  private appendArtifact(artifact: Artifact): void {
    this.append({ kind: 'artifact', artifact, append: false, lastChunk: true });
  }

  private append(event: Parameters<TaskStore['append']>[1]): void {
    // An event after the task ended (a late or repeated one from the agent) has nowhere to go.
    if (isTerminal(this.record.status.state)) return;
    this.options.store.append(this.record, event, this.options.clock.now());
  }

  private async drain(items: AsyncIterator<UpstreamItem>): Promise<void> {
    try {
      for (let next = await items.next(); !next.done && !this.stopped; next = await items.next()) {
        this.apply(next.value);
      }
    } catch {
      // The stream broke: following the task again (below) finds out what was missed.
    } finally {
      if (this.stopped) void items.return?.();
    }
  }

  /**
   * The agent's stream ended before the turn did: resubscribe (or poll, for an agent that does not
   * stream) until the turn ends. Failures in a row end the waiting streams with the last error.
   */
  private async follow(): Promise<void> {
    let failures = 0;
    let attempt = 0;
    let lastError: A2AError | undefined;
    while (!this.turnEnded && !this.stopped) {
      const seqBefore = this.record.log.latestSeq;
      try {
        if (this.options.upstream.streaming) {
          for await (const item of this.options.upstream.subscribe(this.record.id, this.call)) {
            if (this.stopped) return;
            this.apply(item);
          }
          // A stream that keeps ending early and brings nothing new is a failure too.
          if (!this.turnEnded && this.record.log.latestSeq === seqBefore) {
            throw new A2AError(
              'InvalidAgentResponseError',
              'Invalid agent response: its stream of the task ended before the task did',
              { httpStatus: 502 },
            );
          }
        } else {
          this.reconcile(await this.options.upstream.getTask(this.record.id, this.call));
        }
        failures = 0;
      } catch (error) {
        lastError =
          error instanceof A2AError
            ? error
            : new A2AError(
                'InvalidAgentResponseError',
                `Invalid agent response: ${(error as Error).message}`,
                {
                  httpStatus: 502,
                },
              );
        if (++failures >= MAX_FAILURES) return this.break(lastError);
      }
      if (this.turnEnded || this.stopped) return;
      await this.wait(RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]!);
    }
  }

  private break(cause: A2AError): void {
    const error = new A2AError(
      cause.type,
      `The agent at ${this.options.upstream.url} could not be followed for task ${this.record.id}: ${cause.message}`,
      { ...cause.details, metadata: { ...cause.details.metadata, taskId: this.record.id } },
    );
    for (const listener of [...this.breakListeners]) listener(error);
    this.breakListeners.clear();
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => this.options.clock.setTimer(ms, resolve));
  }
}

function sameStatus(a: TaskStatus, b: TaskStatus): boolean {
  return a.state === b.state && a.timestamp === b.timestamp && a.message?.messageId === b.message?.messageId;
}
