/** Planning one turn at a time from inline YAML, and reading the timelines: shared by the engine tests. */
import { expect } from 'vitest';
import type { Message, Part } from '../../src/domain/types.js';
import {
  planTurn,
  type PlannedEvent,
  type Timeline,
  type TimelineEntry,
  type TurnInput,
} from '../../src/engine/plan.js';
import { taskStreams } from '../../src/lib/random.js';
import { formatIssue, parseScenario } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/model.js';

export const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
export const TASK_ID = 'task-1';
export const CONTEXT_ID = 'ctx-1';

/** Compiles a scenario from YAML text, failing the test with the loader's issues if it is invalid. */
export async function inline(yaml: string, id = 'inline'): Promise<Scenario> {
  const { scenario, issues } = await parseScenario(id, `${id}.yaml`, yaml);
  if (!scenario) throw new Error(`inline scenario is invalid:\n${issues.map(formatIssue).join('\n')}`);
  return scenario;
}

export function userMessage(text: string, messageId = 'msg-1'): Message {
  return { messageId, role: 'user', parts: [{ kind: 'text', text }], taskId: TASK_ID, contextId: CONTEXT_ID };
}

export function turn(
  scenario: Scenario,
  text: string,
  seed = 'seed-1',
  extra: Partial<TurnInput> = {},
): Timeline {
  return planTurn({
    scenario,
    message: userMessage(text),
    taskId: TASK_ID,
    contextId: CONTEXT_ID,
    nowMs: NOW,
    streams: taskStreams(seed),
    ...extra,
  });
}

/** The next turn after `previous` paused, as the runner plans it (fresh streams per turn). */
export function followUp(
  scenario: Scenario,
  previous: Timeline,
  text: string,
  seed = 'seed-1/turn-2',
  extra: Partial<TurnInput> = {},
): Timeline {
  if (previous.end.kind !== 'paused') throw new Error('the previous turn did not pause');
  return turn(scenario, text, seed, { resumeFrom: previous.end.pause, ...extra });
}

export function states(timeline: Timeline): string[] {
  return timeline.entries.flatMap((e) => (e.event.kind === 'status' ? [e.event.state] : []));
}

export function kinds(timeline: Timeline): string[] {
  return timeline.entries.map((e) => (e.event.kind === 'status' ? e.event.state : 'artifact'));
}

export function expectNonDecreasing(entries: readonly TimelineEntry[]): void {
  for (let i = 1; i < entries.length; i++) {
    expect(entries[i]!.atMs, `entry ${i} is earlier than entry ${i - 1}`).toBeGreaterThanOrEqual(
      entries[i - 1]!.atMs,
    );
  }
}

export function textOfParts(parts: readonly Part[]): string {
  return parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('');
}

export function statusText(event: PlannedEvent): string | undefined {
  return event.kind === 'status' && event.message ? textOfParts(event.message.parts) : undefined;
}

export function artifacts(timeline: Timeline) {
  return timeline.entries.flatMap((e) => (e.event.kind === 'artifact' ? [e.event] : []));
}
