/**
 * A prompt that plays a scenario, for people trying the simulator: the first of its skill's
 * `examples` (the card shows those too), else one read off its first text or keyword trigger.
 * Pure: no I/O, no state.
 */
import type { Condition, Scenario } from './model.js';
import { conditionHolds } from './registry.js';

/**
 * The example prompt of `scenario`, or undefined when its triggers are not text (a message id,
 * metadata, a skill) or a pattern too intricate to read one off.
 * @example exampleOf(weather) // 'What is the weather today?' (its skill's first example)
 */
export function exampleOf(scenario: Pick<Scenario, 'skill' | 'match'>): string | undefined {
  const given = scenario.skill?.examples?.[0];
  if (given) return given;
  for (const condition of scenario.match) {
    const example = exampleOfCondition(condition);
    if (example !== undefined) return example;
  }
  return undefined;
}

/**
 * A text that `condition` holds for: its first keyword, or its text pattern with anchors and
 * word boundaries dropped, each group and alternation reduced to its first alternative, and
 * optional parts kept. Checked against the condition itself, so a guess that does not match is
 * never offered.
 */
export function exampleOfCondition(condition: Condition): string | undefined {
  if (condition.messageIdPrefix !== undefined || condition.messageIdRegex || condition.metadata)
    return undefined;
  if (condition.skill !== undefined) return undefined;
  const keyword = condition.keywordList?.[0];
  const fromText = condition.text ? textOf(condition.text.source) : undefined;
  if (condition.text && fromText === undefined) return undefined;
  const example = [fromText, keyword].filter(Boolean).join(' ').trim();
  if (!example) return undefined;
  return conditionHolds(condition, { text: example, messageId: '', metadata: {} }) ? example : undefined;
}

/** A plain text read off a pattern's source, or undefined. */
export function textOf(source: string): string | undefined {
  let text = source
    .replace(/\\[bB]|\^|\$/g, '')
    .replace(/\\s[*+?]?/g, ' ')
    .replace(/\\W[*+?]?/g, (m) => (m.endsWith('+') ? ' ' : ''))
    .replace(/\.[*+]\??/g, ' ');
  // Innermost group first: `(?:a|b)` and `(a|b)` become `a`.
  for (let guard = 0; guard < 20 && GROUP.test(text); guard++) {
    text = text.replace(new RegExp(GROUP.source, 'g'), (_m, inner: string) => firstAlternative(inner));
  }
  text = firstAlternative(text).replace(/(\\.|[^\\])\?/g, '$1');
  // A class, a repetition or an escape like `\d` left over: no one text stands for it.
  if (/\\[a-zA-Z]|(?<!\\)[[\]{}*+]/.test(text)) return undefined;
  text = text.replace(/\\(.)/g, '$1').replace(/ {2,}/g, ' ').trim();
  return text || undefined;
}

/** A group with no group inside (escaped parentheses are characters), optional or not. */
const GROUP = /(?<!\\)\((?:\?:)?((?:\\.|[^\\()])*)\)\??/;

/** `a|b|c` → `a`, at the top level only (no groups are left when this runs). */
const firstAlternative = (pattern: string) => pattern.split(/(?<!\\)\|/)[0] ?? '';
