/**
 * The loaded scenarios and the rule that picks one for a new message. Order, first match wins:
 *   1. `metadata.scenario: "<id>"` on the message (or the request) names it outright;
 *   2. scenarios by `priority`, highest first; equal priorities keep load order (directories in the
 *      order given, user directories before the built-ins, then file name);
 *   3. the first scenario marked `fallback: true`.
 */
import type { JsonObject, JsonValue } from '../domain/types.js';
import type { Condition, Scenario } from './model.js';
import { boundedText } from './pattern.js';

/** What matching looks at in a message. `metadata` is the request's, overlaid by the message's. */
export interface MatchInput {
  text: string;
  messageId: string;
  metadata: JsonObject;
}

export type Selection =
  | { kind: 'matched'; scenario: Scenario; by: 'metadata' | 'rule' | 'fallback' }
  | { kind: 'unknown-id'; id: string }
  | { kind: 'none' };

export class ScenarioRegistry {
  private readonly byId: ReadonlyMap<string, Scenario>;
  private readonly ordered: readonly Scenario[];
  private readonly fallback: Scenario | undefined;

  constructor(scenarios: readonly Scenario[]) {
    this.byId = new Map(scenarios.map((s) => [s.id, s]));
    // Array.prototype.sort is stable, so equal priorities keep load order.
    this.ordered = [...scenarios].filter((s) => s.match.length > 0).sort((a, b) => b.priority - a.priority);
    this.fallback = scenarios.find((s) => s.fallback);
  }

  get(id: string): Scenario | undefined {
    return this.byId.get(id);
  }

  list(): Scenario[] {
    return [...this.byId.values()];
  }

  select(input: MatchInput): Selection {
    const named = input.metadata['scenario'];
    if (typeof named === 'string') {
      const scenario = this.byId.get(named);
      return scenario ? { kind: 'matched', scenario, by: 'metadata' } : { kind: 'unknown-id', id: named };
    }
    const scenario = this.ordered.find((s) => s.match.some((c) => conditionHolds(c, input)));
    if (scenario) return { kind: 'matched', scenario, by: 'rule' };
    return this.fallback ? { kind: 'matched', scenario: this.fallback, by: 'fallback' } : { kind: 'none' };
  }
}

/** Every condition given in the rule must hold. Text conditions read the first 64 Ki characters. */
export function conditionHolds(condition: Condition, input: MatchInput): boolean {
  const text = boundedText(input.text);
  if (condition.text && !condition.text.test(text)) return false;
  if (condition.keywords && !condition.keywords.test(text)) return false;
  if (condition.messageIdPrefix !== undefined && !input.messageId.startsWith(condition.messageIdPrefix))
    return false;
  if (condition.messageIdRegex && !condition.messageIdRegex.test(input.messageId)) return false;
  if (condition.skill !== undefined && input.metadata['skillId'] !== condition.skill) return false;
  if (condition.metadata) {
    for (const [key, expected] of condition.metadata) {
      if (!Object.hasOwn(input.metadata, key)) return false;
      if (expected !== '*' && !jsonEqual(input.metadata[key]!, expected)) return false;
    }
  }
  return true;
}

/** Structural equality; object key order does not matter. */
function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]!))
    );
  }
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => Object.hasOwn(b, k) && jsonEqual((a as JsonObject)[k]!, (b as JsonObject)[k]!))
  );
}
