/** Every rule a client is judged by, in the order verdicts list them. */
import { cardRevalidation, forgedCard, inputRequiredContinuation, retryAfter } from './call-rules.js';
import { noPollAfterTerminal, pollBackoff, pollDeadline, pollJitter } from './polling-rules.js';
import { getAfterGenerationGap } from './generation-rules.js';
import type { Rule } from './rule.js';
import { getAfterFailedResume, noLostEvents, resumeCursor, unknownState } from './stream-rules.js';

export const RULES: readonly Rule[] = Object.freeze([
  resumeCursor,
  noLostEvents,
  getAfterFailedResume,
  pollDeadline,
  pollBackoff,
  pollJitter,
  noPollAfterTerminal,
  retryAfter,
  unknownState,
  inputRequiredContinuation,
  cardRevalidation,
  forgedCard,
  getAfterGenerationGap,
]);

export const RULE_IDS: readonly string[] = Object.freeze(RULES.map((rule) => rule.id));
