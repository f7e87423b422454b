/**
 * Keeps what each client did and judges it, rule by rule: `pass`, `fail` with the evidence, or
 * `not exercised`. Clients are kept apart by their identity (runtime/api.ts ClientIdentity); a task
 * that more than one identity touched is reported as such, since its verdicts may mix two clients.
 * Memory stays bounded: calls per client and clients are capped, the oldest going first.
 */
import { MAX_SLIM_PATH_CHARS } from '../calls/exchange.js';
import type { ClientIdentity } from '../runtime/api.js';
import { factsOf, type Delivered, type Observation } from './observation.js';
import { deadline, wallNow } from '../lib/clock.js';
import { isPaused } from '../domain/lifecycle.js';
import { callsByTask, isStream, isUnknownQuirk } from './rule.js';
import type { Evidence, Finding, Level, Outcome, RuleInput, TaskFacts } from './rule.js';
import { RULES } from './rules.js';
import { DEFAULT_THRESHOLDS, type VerdictThresholds } from './thresholds.js';

export interface RuleVerdict {
  rule: string;
  level: Level;
  source: string;
  checks: string;
  outcome: Outcome;
  /** How many times the rule applied. */
  exercised: number;
  evidence: Evidence[];
}

export interface ClientVerdicts {
  client: string;
  identifiedBy: ClientIdentity['by'];
  calls: number;
  /** Whether every MUST rule that applied held (advice never fails it). */
  passed: boolean;
  verdicts: RuleVerdict[];
}

export interface JudgeOptions {
  facts(taskId: string): TaskFacts | undefined;
  thresholds?: Partial<VerdictThresholds>;
  /** What the calls it keeps may hold, approximately, in bytes; the least recent go first. */
  maxBytes?: number;
  /** Told when a rule could not judge (a simulator bug): the other rules still do. */
  report?(error: unknown): void;
}

/**
 * The client name (`X-Sim-Client`) of the dashboard's talk panel (src/admin/dashboard/agent.js):
 * its calls are a demo, not a client under test, and are left out of the verdicts.
 */
export const DASHBOARD_CLIENT = 'a2a-sim-dashboard';

/** A stream that was cut, or that showed a made-up state: what the end of its task will judge. */
const followedThroughFault = (call: Observation): boolean =>
  isStream(call) && (call.ended === 'cut' || (call.delivered ?? []).some((d) => isUnknownQuirk(factsOf(d))));

const MAX_CALLS_PER_CLIENT = 5_000;
const MAX_CLIENTS = 1_000;
/** What the judge keeps by default: about 100,000 calls, or fewer with long streams. */
export const DEFAULT_VERDICT_BYTES = 32 * 1024 * 1024;
/** What one call costs, approximately, before its path and its stream: the record and what the rules read. */
const CALL_BYTES = 320;
/**
 * What a call holds as the judge keeps it: its path is the client's, and once the journal lets the
 * call go, the record keeps the path's start (the journal counts the whole path while it shows it).
 */
const callBytes = (call: Observation): number =>
  CALL_BYTES + Math.min(call.path?.length ?? 0, MAX_SLIM_PATH_CHARS);
/**
 * What each event a stream delivered is counted at: kept as its facts, an object and its place in
 * the array; kept as its seq alone, the place only.
 */
const DELIVERED_FACTS_BYTES = 48;
const DELIVERED_SEQ_BYTES = 8;

/** What the events a stream delivered hold, as the judge keeps them. */
export function deliveredBytes(delivered: readonly Delivered[] | undefined): number {
  let bytes = 0;
  for (const item of delivered ?? [])
    bytes += typeof item === 'number' ? DELIVERED_SEQ_BYTES : DELIVERED_FACTS_BYTES;
  return bytes;
}
/** What a client's record costs beside its calls: its name (two bytes a character) and the record. */
const clientBytes = (identity: ClientIdentity) => 200 + 2 * identity.id.length;
/** Verdicts are worked out again for the feed at most this often (machine time, off the request path). */
const PUBLISH_EVERY_MS = 250;

interface ClientRecord {
  identity: ClientIdentity;
  calls: Observation[];
  /** What its calls hold, approximately. */
  bytes: number;
  /** When it last called, clock time: the least recent is forgotten first. */
  lastAtMs: number;
  /** Its verdicts as last published, to tell a change. */
  published?: string;
}

export class Judge {
  readonly thresholds: VerdictThresholds;
  private readonly clients = new Map<string, ClientRecord>();
  private readonly dirty = new Set<ClientRecord>();
  private pending = false;
  private lastPublished = 0;
  private heldBytes = 0;
  readonly maxBytes: number;
  private readonly listeners: { changed: (verdicts: ClientVerdicts) => void; wanted: () => boolean }[] = [];

  constructor(private readonly options: JudgeOptions) {
    this.thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
    this.maxBytes = options.maxBytes ?? DEFAULT_VERDICT_BYTES;
  }

  /** What the calls it keeps hold, approximately, in bytes. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** How many clients and calls it keeps. */
  get size(): { clients: number; calls: number } {
    let calls = 0;
    for (const client of this.clients.values()) calls += client.calls.length;
    return { clients: this.clients.size, calls };
  }

  /**
   * Called when a client's verdicts change, once the calls of this turn of the event loop are in
   * (never on the clock: a virtual clock's time is the test's, not the judge's). Verdicts are only
   * worked out while `wanted` says someone listens.
   */
  onChange(changed: (verdicts: ClientVerdicts) => void, wanted: () => boolean = () => true): void {
    this.listeners.push({ changed, wanted });
  }

  /** A call arrived; its exchange record is filled in as its answer goes out. */
  observe(identity: ClientIdentity, call: Observation): void {
    if (identity.id === DASHBOARD_CLIENT) return;
    let client = this.clients.get(identity.id);
    if (!client) {
      // Past the cap, the client heard from least recently is forgotten (rare: a scan is fine).
      if (this.clients.size >= MAX_CLIENTS) this.forgetOldest();
      this.clients.set(identity.id, (client = { identity, calls: [], bytes: 0, lastAtMs: 0 }));
      // The client's name is the client's to choose (`X-Sim-Client`, up to a header's size).
      this.hold(client, clientBytes(identity));
    }
    client.lastAtMs = call.atMs;
    client.calls.push(call);
    this.hold(client, callBytes(call));
    // Trimmed in batches: a busy client costs amortised O(1) per call, not a shift of all it keeps.
    if (client.calls.length > MAX_CALLS_PER_CLIENT * 1.25) this.trim(client, MAX_CALLS_PER_CLIENT);
    this.touch(client);
  }

  /**
   * Something about a call changed (its answer, its stream): its client is judged again soon.
   * `delivered`: the events a stream that just ended delivered, now counted against the budget.
   */
  updated(identity: ClientIdentity | undefined, delivered?: readonly Delivered[]): void {
    const client = identity && this.clients.get(identity.id);
    if (!client) return;
    const bytes = deliveredBytes(delivered);
    if (bytes > 0) this.hold(client, bytes);
    this.touch(client);
  }

  private hold(client: ClientRecord, bytes: number): void {
    client.bytes += bytes;
    this.heldBytes += bytes;
    if (this.heldBytes > this.maxBytes) this.makeRoom(client);
  }

  /** Forgets the least recent clients, then the oldest calls of the one calling now, until it fits. */
  private makeRoom(current: ClientRecord): void {
    while (this.heldBytes > this.maxBytes && this.clients.size > 1) {
      const oldest = this.oldest(current);
      if (!oldest) break;
      this.forget(oldest);
    }
    if (this.heldBytes > this.maxBytes) this.trim(current, Math.floor(current.calls.length / 2));
  }

  /** Keeps the newest `keep` calls of a client. */
  private trim(client: ClientRecord, keep: number): void {
    client.calls.splice(0, client.calls.length - keep);
    let bytes = clientBytes(client.identity);
    for (const call of client.calls) bytes += callBytes(call) + deliveredBytes(call.delivered);
    this.heldBytes += bytes - client.bytes;
    client.bytes = bytes;
  }

  private oldest(except?: ClientRecord): ClientRecord | undefined {
    let oldest: ClientRecord | undefined;
    for (const client of this.clients.values()) {
      if (client !== except && (!oldest || client.lastAtMs < oldest.lastAtMs)) oldest = client;
    }
    return oldest;
  }

  private forget(client: ClientRecord): void {
    this.clients.delete(client.identity.id);
    this.dirty.delete(client);
    this.heldBytes -= client.bytes;
  }

  private forgetOldest(): void {
    const oldest = this.oldest();
    if (oldest) this.forget(oldest);
  }

  verdicts(client?: string): ClientVerdicts[] {
    const records =
      client === undefined
        ? [...this.clients.values()]
        : [this.clients.get(client)].filter((c) => c !== undefined);
    return records.map((record) => this.judge(record));
  }

  /**
   * Tasks still running whose verdicts wait for their end, with the client that was following
   * each: its stream of the task was cut, or showed it a made-up state, and `no-lost-events` and
   * `unknown-state` judge a task only once it has ended. A task paused for the client's input is
   * left out: it ends only if the client answers. `a2a-sim exam` waits for these (within its
   * timeout) before it judges, so that a client that abandoned a task is seen to lose its end.
   * @example while (sim.awaitingVerdicts().length && !timedOut()) await sleep(100);
   */
  awaiting(client?: string): { client: string; taskId: string }[] {
    const waiting: { client: string; taskId: string }[] = [];
    for (const record of this.clients.values()) {
      if (client !== undefined && record.identity.id !== client) continue;
      for (const [taskId, calls] of callsByTask(record.calls)) {
        if (!calls.some(followedThroughFault)) continue;
        const known = this.options.facts(taskId);
        if (known && !isPaused(known.state)) waiting.push({ client: record.identity.id, taskId });
      }
    }
    return waiting;
  }

  /** Tasks that more than one client identity called about, with those identities. */
  shared(): { taskId: string; clients: string[] }[] {
    const seen = new Map<string, Set<string>>();
    for (const [id, record] of this.clients) {
      for (const call of record.calls) {
        if (call.taskId === undefined) continue;
        let ids = seen.get(call.taskId);
        if (!ids) seen.set(call.taskId, (ids = new Set()));
        ids.add(id);
      }
    }
    return [...seen]
      .filter(([, ids]) => ids.size > 1)
      .map(([taskId, ids]) => ({ taskId, clients: [...ids] }));
  }

  clear(): void {
    this.clients.clear();
    this.dirty.clear();
    this.heldBytes = 0;
  }

  private judge(record: ClientRecord): ClientVerdicts {
    const input = { calls: record.calls, facts: this.options.facts, thresholds: this.thresholds };
    const verdicts = RULES.map((rule): RuleVerdict => {
      const { exercised, failures, advice = [] } = this.apply(rule, input);
      const { id, level, source, checks } = rule;
      if (!failures.length && advice.length && rule.advice) {
        // Only where the rule is advice did the client fall short: the verdict rests on that source.
        const rests = `On the ${rule.advice.bindings}: ${rule.advice.source}`;
        return {
          rule: id,
          level: 'SHOULD',
          source: rests,
          checks,
          outcome: 'advice',
          exercised,
          evidence: advice,
        };
      }
      const outcome: Outcome = failures.length ? 'fail' : exercised ? 'pass' : 'not exercised';
      return { rule: id, level, source, checks, outcome, exercised, evidence: failures };
    });
    return {
      client: record.identity.id,
      identifiedBy: record.identity.by,
      calls: record.calls.length,
      passed: !verdicts.some((v) => v.level === 'MUST' && v.outcome === 'fail'),
      verdicts,
    };
  }

  /** One rule's finding; a rule that throws is reported and judges nothing, the others go on. */
  private apply(rule: (typeof RULES)[number], input: RuleInput): Finding {
    try {
      return rule.judge(input);
    } catch (error) {
      this.options.report?.(error);
      return { exercised: 0, failures: [] };
    }
  }

  private touch(client: ClientRecord): void {
    if (!this.listeners.some((l) => l.wanted())) return;
    this.dirty.add(client);
    if (this.pending) return;
    this.pending = true;
    // At most every PUBLISH_EVERY_MS: a busy client's verdicts are worked out once for many calls.
    const wait = this.lastPublished + PUBLISH_EVERY_MS - wallNow();
    if (wait <= 0) setImmediate(() => this.publish());
    else deadline(wait, () => this.publish());
  }

  private publish(): void {
    this.pending = false;
    this.lastPublished = wallNow();
    for (const client of this.dirty) {
      const verdicts = this.judge(client);
      const text = JSON.stringify(verdicts.verdicts.map((v) => [v.rule, v.outcome, v.exercised]));
      if (text === client.published) continue;
      client.published = text;
      for (const listener of this.listeners) {
        try {
          listener.changed(verdicts);
        } catch (error) {
          this.options.report?.(error);
        }
      }
    }
    this.dirty.clear();
  }
}
