/**
 * Task lifecycle rules (§4.1.3): which states end a task, which pause it, and how an event changes a
 * task. Pure: the store calls {@link applyEvent} and keeps the result.
 */
import type { Artifact, Task, TaskEvent, TaskState } from './types.js';

export type StateClass = 'active' | 'interrupted' | 'terminal' | 'unknown';

export const STATE_CLASS: Readonly<Record<TaskState, StateClass>> = Object.freeze({
  submitted: 'active',
  working: 'active',
  'input-required': 'interrupted',
  'auth-required': 'interrupted',
  completed: 'terminal',
  failed: 'terminal',
  canceled: 'terminal',
  rejected: 'terminal',
  unknown: 'unknown',
});

export const isTerminal = (state: TaskState): boolean => STATE_CLASS[state] === 'terminal';
export const isInterrupted = (state: TaskState): boolean => STATE_CLASS[state] === 'interrupted';

/** A blocking send answers, and a turn's work stops, once the task is terminal or interrupted. */
export const isPaused = (state: TaskState): boolean => isTerminal(state) || isInterrupted(state);

/** Terminal states are final: nothing may follow them (§4.1.3). */
export function canApply(task: Task, _event: TaskEvent): boolean {
  return !isTerminal(task.status.state);
}

/**
 * The task after `event`. Status messages join the history, as the reference SDK records them;
 * artifact chunks with `append` extend the artifact already sent under that id.
 */
export function applyEvent(task: Task, event: TaskEvent): Task {
  switch (event.kind) {
    case 'task':
      return event.task;
    case 'status': {
      const history = event.status.message ? [...task.history, event.status.message] : task.history;
      return { ...task, status: event.status, history };
    }
    case 'artifact':
      return { ...task, artifacts: mergeArtifact(task.artifacts, event.artifact, event.append) };
  }
}

function mergeArtifact(artifacts: Artifact[], chunk: Artifact, append: boolean): Artifact[] {
  const index = artifacts.findIndex((a) => a.artifactId === chunk.artifactId);
  if (index < 0) return [...artifacts, chunk];
  const existing = artifacts[index]!;
  const merged = append ? { ...existing, parts: [...existing.parts, ...chunk.parts] } : chunk;
  return artifacts.map((a, i) => (i === index ? merged : a));
}
