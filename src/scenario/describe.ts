/**
 * Scenarios as people read them: the rows of `a2a-sim list --json` and of the control plane's
 * `GET /_sim/scenarios`.
 */
import { exampleOf } from './example.js';
import type { Condition, Scenario } from './model.js';

/** What a message that selects the scenario gets back. */
const ANSWERS = Object.freeze({ steps: 'task', reply: 'message', error: 'error' } as const);

export function scenarioSummary(s: Scenario) {
  const example = exampleOf(s);
  return {
    id: s.id,
    file: s.file,
    description: s.description,
    priority: s.priority,
    fallback: s.fallback,
    match: s.match.map(describeCondition),
    kind: ANSWERS[s.script.kind],
    /** A prompt that plays it: its skill's first example, or one read off its trigger. */
    ...(example !== undefined && { example }),
  };
}

export function describeCondition(c: Condition): string {
  const parts: string[] = [];
  if (c.text) parts.push(`text ${c.text}`);
  if (c.keywordList) parts.push(`keywords ${c.keywordList.join(', ')}`);
  if (c.messageIdPrefix !== undefined) parts.push(`messageId starts with "${c.messageIdPrefix}"`);
  if (c.messageIdRegex) parts.push(`messageId ${c.messageIdRegex}`);
  if (c.metadata) parts.push(`metadata ${JSON.stringify(Object.fromEntries(c.metadata))}`);
  if (c.skill !== undefined) parts.push(`skill ${c.skill}`);
  return parts.join(' and ');
}
