/**
 * Keeps what each client did and judges it, rule by rule: `pass`, `fail` with the evidence, or
 * `not exercised`. Clients are kept apart by their identity (runtime/api.ts ClientIdentity); a task
 * that more than one identity touched is reported as such, since its verdicts may mix two clients.
 * Memory stays bounded: calls per client and clients are capped, the oldest going first.
 */
import type { ClientIdentity } from '../runtime/api.js';
import type { Observation } from './observation.js';
import type { Evidence, Level, Outcome, TaskFacts } from './rule.js';
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
  /** Whether every MUST rule that applied held. */
  passed: boolean;
  verdicts: RuleVerdict[];
}

export interface JudgeOptions {
  facts(taskId: string): TaskFacts | undefined;
  thresholds?: Partial<VerdictThresholds>;
}

const MAX_CALLS_PER_CLIENT = 5_000;
const MAX_CLIENTS = 1_000;

interface ClientRecord {
  identity: ClientIdentity;
  calls: Observation[];
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
  private readonly listeners: { changed: (verdicts: ClientVerdicts) => void; wanted: () => boolean }[] = [];

  constructor(private readonly options: JudgeOptions) {
    this.thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
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
    let client = this.clients.get(identity.id);
    if (!client) {
      // Past the cap, the client heard from least recently is forgotten (rare: a scan is fine).
      if (this.clients.size >= MAX_CLIENTS) this.forgetOldest();
      this.clients.set(identity.id, (client = { identity, calls: [], lastAtMs: 0 }));
    }
    client.lastAtMs = call.atMs;
    client.calls.push(call);
    // Trimmed in batches: a busy client costs amortised O(1) per call, not a shift of all it keeps.
    if (client.calls.length > MAX_CALLS_PER_CLIENT * 1.25) {
      client.calls.splice(0, client.calls.length - MAX_CALLS_PER_CLIENT);
    }
    this.touch(client);
  }

  /** Something about a call changed (its answer, its stream): its client is judged again soon. */
  updated(identity: ClientIdentity | undefined): void {
    const client = identity && this.clients.get(identity.id);
    if (client) this.touch(client);
  }

  private forgetOldest(): void {
    let oldest: [string, ClientRecord] | undefined;
    for (const entry of this.clients) if (!oldest || entry[1].lastAtMs < oldest[1].lastAtMs) oldest = entry;
    if (oldest) this.clients.delete(oldest[0]);
  }

  verdicts(client?: string): ClientVerdicts[] {
    const records =
      client === undefined
        ? [...this.clients.values()]
        : [this.clients.get(client)].filter((c) => c !== undefined);
    return records.map((record) => this.judge(record));
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
  }

  private judge(record: ClientRecord): ClientVerdicts {
    const input = { calls: record.calls, facts: this.options.facts, thresholds: this.thresholds };
    const verdicts = RULES.map((rule): RuleVerdict => {
      const { exercised, failures } = rule.judge(input);
      const outcome: Outcome = failures.length ? 'fail' : exercised ? 'pass' : 'not exercised';
      const { id, level, source, checks } = rule;
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

  private touch(client: ClientRecord): void {
    if (!this.listeners.some((l) => l.wanted())) return;
    this.dirty.add(client);
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => this.publish());
  }

  private publish(): void {
    this.pending = false;
    for (const client of this.dirty) {
      const verdicts = this.judge(client);
      const text = JSON.stringify(verdicts.verdicts.map((v) => [v.rule, v.outcome, v.exercised]));
      if (text === client.published) continue;
      client.published = text;
      for (const listener of this.listeners) listener.changed(verdicts);
    }
    this.dirty.clear();
  }
}
