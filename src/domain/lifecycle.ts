/**
 * Task lifecycle rules (§4.1.3): which states end a task, which pause it, and how an event changes a
 * task (the store keeps a {@link LiveTask} per task).
 */
import type { Artifact, Message, Task, TaskEvent, TaskState, TaskStatus } from './types.js';

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
export function canApply(task: Pick<Task, 'status'>, _event: TaskEvent): boolean {
  return !isTerminal(task.status.state);
}

/**
 * The task's generation after `event` (v1.1 draft §3.2.7): each status or artifact event is one
 * mutation, one step; a Task snapshot (a turn's opening) carries the generation it was taken at.
 * Undefined while the task keeps none (the preview is off).
 */
/** The state an event shows: a status update's, or the opening task's; an artifact shows none. */
export function stateShownBy(event: TaskEvent): TaskState | undefined {
  if (event.kind === 'status') return event.status.state;
  return event.kind === 'task' ? event.task.status.state : undefined;
}

export function generationAfter(previous: number | undefined, event: TaskEvent): number | undefined {
  if (event.kind === 'task') return event.task.generation;
  return previous === undefined ? undefined : previous + 1;
}

/**
 * A task as its events have made it so far. Status messages join the history, as the reference SDK
 * records them; artifact chunks with `append` extend the artifact already sent under that id.
 *
 * Each event costs the same however long the history or an artifact has grown: the lists grow in
 * place, and a {@link Task} is copied out only when someone asks for one, so a stream of a thousand
 * appended chunks does not copy the artifact a thousand times. Events and snapshots handed out are
 * never touched afterwards.
 */
export class LiveTask {
  readonly id: string;
  private contextIdNow!: string;
  private metadata: Task['metadata'];
  private statusNow!: TaskStatus;
  private history!: Message[];
  /** Owned copies: the logged chunk an artifact started from must not grow with it. */
  private artifacts!: Artifact[];
  private generationNow: number | undefined;

  constructor(task: Task) {
    this.id = task.id;
    this.reset(task);
  }

  get contextId(): string {
    return this.contextIdNow;
  }

  get status(): TaskStatus {
    return this.statusNow;
  }

  get generation(): number | undefined {
    return this.generationNow;
  }

  apply(event: TaskEvent): void {
    this.generationNow = generationAfter(this.generationNow, event);
    switch (event.kind) {
      case 'task':
        this.reset(event.task);
        break;
      case 'status':
        this.statusNow = event.status;
        if (event.status.message) this.history.push(event.status.message);
        break;
      case 'artifact':
        this.mergeArtifact(event.artifact, event.append);
        break;
    }
  }

  /** The task as a value, copied now. */
  snapshot(): Task {
    const task: Task = {
      id: this.id,
      contextId: this.contextIdNow,
      status: this.statusNow,
      artifacts: this.artifacts.map(ownedCopy),
      history: this.history.slice(),
    };
    if (this.metadata !== undefined) task.metadata = this.metadata;
    if (this.generationNow !== undefined) task.generation = this.generationNow;
    return task;
  }

  private reset(task: Task): void {
    this.contextIdNow = task.contextId;
    this.metadata = task.metadata;
    this.statusNow = task.status;
    this.generationNow = task.generation;
    this.history = task.history.slice();
    this.artifacts = [];
    for (const artifact of task.artifacts) this.mergeArtifact(artifact, false);
  }

  /** By a scan, not an index: a task has a handful of artifacts, however many chunks each has. */
  private mergeArtifact(chunk: Artifact, append: boolean): void {
    const index = this.artifacts.findIndex((a) => a.artifactId === chunk.artifactId);
    if (index < 0) this.artifacts.push(ownedCopy(chunk));
    else if (append) this.artifacts[index]!.parts.push(...chunk.parts);
    else this.artifacts[index] = ownedCopy(chunk);
  }
}

/** A copy of the artifact with a parts list of its own, field by field (see lib/objects.ts). */
function ownedCopy(artifact: Artifact): Artifact {
  const copy: Artifact = { artifactId: artifact.artifactId, parts: artifact.parts.slice() };
  if (artifact.name !== undefined) copy.name = artifact.name;
  if (artifact.description !== undefined) copy.description = artifact.description;
  if (artifact.metadata !== undefined) copy.metadata = artifact.metadata;
  if (artifact.extensions !== undefined) copy.extensions = artifact.extensions;
  return copy;
}
