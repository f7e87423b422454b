/**
 * What bounds a relay of a proxied task (proxy-run.ts), besides the store's byte budget: how long it
 * may bring nothing new, how long it may last in all, and how many artifacts the task may gather;
 * and the errors a relay stops with. docs/limits.md lists them with the upstream client's.
 */
import { A2AError } from '../domain/errors.js';
import { formatBytes } from '../lib/bytes.js';
import type { Clock, Timer } from '../lib/clock.js';
import { formatDuration } from '../lib/duration.js';

/** How long a relay may bring nothing new (no new event, no change seen by polling) before it stops. */
export const RELAY_IDLE_MS = 5 * 60_000;
/** How long one turn's relay may last in all, however much it brings. */
export const RELAY_TOTAL_MS = 30 * 60_000;
/**
 * The most artifacts a proxied task may gather: the task looks each new one up among those it has,
 * so tens of thousands would stall the event loop. The same number as the upstream client's list
 * limit (src/upstream/limits.ts), which refuses longer lists in one answer.
 */
export const MAX_RELAYED_ARTIFACTS = 1000;

/**
 * The two deadlines of one relay, checked by one timer set for the nearer of them: `onDue` hears the
 * one that passed. {@link news} moves the idle one.
 *
 * @example const deadlines = new RelayDeadlines(clock, (error) => run.halt(error)); deadlines.start();
 */
export class RelayDeadlines {
  private timer: Timer | undefined;
  private startedAt = 0;
  private newsAt = 0;

  constructor(
    private readonly clock: Clock,
    private readonly onDue: (error: A2AError) => void,
  ) {}

  start(): void {
    this.startedAt = this.newsAt = this.clock.now();
    this.arm();
  }

  /** Something new came from the agent. */
  news(): void {
    this.newsAt = this.clock.now();
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private arm(): void {
    this.timer?.cancel();
    const due = Math.min(this.newsAt + RELAY_IDLE_MS, this.startedAt + RELAY_TOTAL_MS);
    this.timer = this.clock.setTimer(due - this.clock.now(), () => this.check());
  }

  private check(): void {
    this.timer = undefined;
    const now = this.clock.now();
    if (now >= this.startedAt + RELAY_TOTAL_MS) {
      const ran = `the relay ran for ${formatDuration(RELAY_TOTAL_MS)}, its total deadline`;
      this.onDue(relayLimit('RELAY_TOTAL_MS', ran));
    } else if (now >= this.newsAt + RELAY_IDLE_MS) {
      const quiet = `nothing new from the agent for ${formatDuration(RELAY_IDLE_MS)}, the relay's idle deadline`;
      this.onDue(relayLimit('RELAY_IDLE_MS', quiet));
    } else {
      this.arm();
    }
  }
}

/** A relay limit was reached: the agent's fault, as the upstream client's limits are. */
export function relayLimit(limit: string, what: string): A2AError {
  return new A2AError('InvalidAgentResponseError', `Invalid agent response: ${what}`, {
    httpStatus: 502,
    metadata: { limit },
  });
}

/** An error of a relay limit or of the upstream client's (src/upstream/limits.ts): its metadata names the limit. */
export function isLimit(error: unknown): error is A2AError {
  return error instanceof A2AError && error.details.metadata?.['limit'] !== undefined;
}

/** Why the store refused a relayed event, from what its ResourceExhausted error says in numbers. */
export function budgetSpent(error: A2AError): A2AError {
  const { heldBytes, maxBytes, bytes } = error.details.metadata ?? {};
  return new A2AError(
    'ResourceExhaustedError',
    `the agent's next event needs ${formatBytes(Number(bytes))} more, and the tasks in progress already hold ` +
      `${formatBytes(Number(heldBytes))} of the store's ${formatBytes(Number(maxBytes))} (--max-store-bytes)`,
    error.details,
  );
}
