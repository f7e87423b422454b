/**
 * Keeps one proxied task's log in step with the real agent: every item the agent streams becomes an
 * event of the task's own log, so resume, listing, the journal, the feed and chaos work on it as on
 * a scripted task. When the agent's stream ends before the turn does (cut, or an agent that does not
 * stream), the run follows the task again upstream, by resubscribing or by polling; when that too
 * fails, the streams that wait on it end with the error, never silently.
 *
 * A relay is bounded (proxy-limits.ts). Its events count against the store's byte budget as a
 * scripted task's do, a task gathers a limited number of artifacts, and a turn's relay has an idle
 * and a total deadline. Past any of these, or when the agent's answer goes past a limit of the upstream
 * client, the relay stops: the upstream call is aborted, the calls waiting on the turn end with the
 * error, and the task is marked failed with a message saying why. Failed, it has ended, so it can
 * make room in the store rather than hold its bytes forever as a task that is still working.
 */
import { A2AError } from '../domain/errors.js';
import { isPaused, isTerminal } from '../domain/lifecycle.js';
import { eventBytes } from '../domain/size.js';
import type { Artifact, Message, Task, TaskEvent, TaskStatus } from '../domain/types.js';
import type { Clock } from '../lib/clock.js';
import { isoTime } from '../lib/iso-time.js';
import type { TaskRecord, TaskStore } from '../store/task-store.js';
import type { UpstreamAgent, UpstreamCall, UpstreamItem } from './api.js';
import { budgetSpent, isLimit, MAX_RELAYED_ARTIFACTS, RelayDeadlines, relayLimit } from './proxy-limits.js';
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
  /** Which relay is current: one that finds it changed has been stopped or replaced. */
  private generation = 0;
  private controller: AbortController | undefined;
  private readonly deadlines: RelayDeadlines;
  /** Why the relay stopped, for a blocking send that asks after it did. */
  private halted: A2AError | undefined;
  private readonly artifactIds: Set<string>;
  private readonly breakListeners = new Set<(error: A2AError) => void>();

  constructor(
    readonly record: TaskRecord,
    private call: UpstreamCall,
    private readonly options: ProxyRunOptions,
  ) {
    this.artifactIds = new Set(record.task.artifacts.map((a) => a.artifactId));
    this.deadlines = new RelayDeadlines(options.clock, (error) => this.onDeadline(error));
  }

  get turnEnded(): boolean {
    return isPaused(this.record.status.state);
  }

  /**
   * Relays the rest of an answer already begun; then follows the task until the turn ends.
   * `controller` aborts the call `items` come from; it is the run's from now on.
   */
  relay(items: AsyncIterator<UpstreamItem>, call: UpstreamCall, controller: AbortController): void {
    this.call = call;
    const generation = this.begin(controller);
    void this.drain(items, generation)
      .then(() => this.follow(generation))
      .finally(() => this.end(generation));
  }

  /** A subscriber arrived while nothing follows the task upstream: follow it again. */
  ensureFollowing(): void {
    if (this.relaying || this.turnEnded || this.stopped) return;
    const controller = new AbortController();
    this.call = { ...this.call, signal: controller.signal };
    const generation = this.begin(controller);
    void this.follow(generation).finally(() => this.end(generation));
  }

  /** Whether a GetTask answer may be written into the log (not while a stream writes it). */
  get idle(): boolean {
    return !this.relaying;
  }

  /** Resolves when the turn after `fromSeq` ends; rejects when the agent cannot be followed. */
  untilTurnEnds(fromSeq: number): Promise<void> {
    if (this.halted) return Promise.reject(this.halted);
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

  /** The task left the store: nothing more is relayed, and the agent is let go. */
  stop(): void {
    this.stopped = true;
    this.generation++;
    this.relaying = false;
    this.deadlines.stop();
    this.controller?.abort();
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
    for (const artifact of task.artifacts) {
      if (!this.artifactIds.has(artifact.artifactId)) this.appendArtifact(artifact);
    }
    // A snapshot may restamp the status it is in: only a new state or message is news.
    const { status } = this.record;
    if (status.state !== task.status.state || status.message?.messageId !== task.status.message?.messageId) {
      this.append({ kind: 'status', status: task.status });
    }
  }

  /**
   * Opens a follow-up turn: the task as it is, the user's answer included (§3.1.2). The answer's
   * bytes were admitted to the store before it went to the agent.
   */
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

  /** Logs an event within the store's budget and the artifact limit; past them, the relay stops. */
  private append(event: TaskEvent): void {
    // An event after the task ended (a late or repeated one from the agent) has nowhere to go.
    if (isTerminal(this.record.status.state) || this.halted) return;
    if (event.kind === 'artifact' && !this.artifactIds.has(event.artifact.artifactId)) {
      if (this.artifactIds.size >= MAX_RELAYED_ARTIFACTS) {
        const what = `the task would hold more than ${MAX_RELAYED_ARTIFACTS} artifacts`;
        return this.halt(relayLimit('MAX_RELAYED_ARTIFACTS', what));
      }
      this.artifactIds.add(event.artifact.artifactId);
    }
    const { store, clock } = this.options;
    try {
      store.admit(eventBytes(event));
    } catch (error) {
      if (error instanceof A2AError && error.type === 'ResourceExhaustedError')
        return this.halt(budgetSpent(error));
      throw error;
    }
    store.append(this.record, event, clock.now());
    this.deadlines.news();
  }

  /** Starts a relay under `controller`, replacing any other; returns its generation. */
  private begin(controller: AbortController): number {
    this.controller?.abort();
    this.controller = controller;
    this.relaying = true;
    this.deadlines.start();
    return ++this.generation;
  }

  private end(generation: number): void {
    if (generation !== this.generation) return;
    this.relaying = false;
    this.deadlines.stop();
  }

  private current(generation: number): boolean {
    return generation === this.generation && !this.stopped;
  }

  private onDeadline(error: A2AError): void {
    if (!this.relaying) return;
    if (!this.turnEnded) return this.halt(error);
    // The turn is over and the agent keeps its stream open: let it go, the task is fine.
    this.generation++;
    this.relaying = false;
    this.controller?.abort();
  }

  private async drain(items: AsyncIterator<UpstreamItem>, generation: number): Promise<void> {
    try {
      for (let next = await items.next(); !next.done && this.current(generation); next = await items.next()) {
        this.apply(next.value);
      }
    } catch (error) {
      // Past a limit, the agent's answer is not one to follow again: the relay stops here.
      if (this.current(generation) && isLimit(error)) this.halt(error);
      // Otherwise the stream broke: following the task again (below) finds out what was missed.
    } finally {
      if (!this.current(generation)) void items.return?.();
    }
  }

  /**
   * The agent's stream ended before the turn did: resubscribe (or poll, for an agent that does not
   * stream) until the turn ends. Failures in a row end the waiting streams with the last error.
   */
  private async follow(generation: number): Promise<void> {
    let failures = 0;
    let attempt = 0;
    let lastError: A2AError | undefined;
    while (!this.turnEnded && this.current(generation)) {
      const seqBefore = this.record.log.latestSeq;
      try {
        if (this.options.upstream.streaming) {
          for await (const item of this.options.upstream.subscribe(this.record.id, this.call)) {
            if (!this.current(generation)) return;
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
          const task = await this.options.upstream.getTask(this.record.id, this.call);
          if (!this.current(generation)) return;
          this.reconcile(task);
        }
        failures = 0;
      } catch (error) {
        if (!this.current(generation)) return;
        if (isLimit(error)) return this.halt(error);
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
      if (this.turnEnded || !this.current(generation)) return;
      await this.wait(RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]!);
    }
  }

  private break(cause: A2AError): void {
    const error = new A2AError(
      cause.type,
      `The agent at ${this.options.upstream.url} could not be followed for task ${this.record.id}: ${cause.message}`,
      { ...cause.details, metadata: { ...cause.details.metadata, taskId: this.record.id } },
    );
    this.tellBreak(error);
  }

  /**
   * Stops the relay for good: the agent is let go, the calls waiting on the turn end with the error
   * (a stream with an error frame, a blocking send with the error), and the task is marked failed.
   */
  private halt(cause: A2AError): void {
    if (this.halted) return;
    const { clock, store, upstream } = this.options;
    const reason = cause.message.replace(/^Invalid agent response: /, '').replace(/\.?$/, '.');
    this.halted = new A2AError(
      cause.type,
      `Failed to relay task ${this.record.id} from the agent at ${upstream.url}: ${reason} The task is marked failed.`,
      { ...cause.details, metadata: { ...cause.details.metadata, taskId: this.record.id } },
    );
    this.generation++;
    this.relaying = false;
    this.deadlines.stop();
    this.controller?.abort();
    this.tellBreak(this.halted);
    if (isTerminal(this.record.status.state)) return;
    // Let in past the budget: a few hundred bytes, and the task ends, so it can make room.
    const now = clock.now();
    const message: Message = {
      messageId: `${this.record.id}-relay-stopped`,
      role: 'agent',
      parts: [{ kind: 'text', text: `The simulator stopped relaying this task: ${reason}` }],
      taskId: this.record.id,
      contextId: this.record.contextId,
    };
    const status: TaskStatus = { state: 'failed', timestamp: isoTime(now), message };
    store.append(this.record, { kind: 'status', status }, now);
  }

  private tellBreak(error: A2AError): void {
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
