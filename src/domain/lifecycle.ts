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
  /** The created task's own list until a status message adds to it: then a copy of it, grown here. */
  private history!: Message[];
  private historyOwned = false;
  /** The logged chunks themselves, until one is appended to: see {@link mergeArtifact}. */
  private artifacts: Artifact[] = NO_ARTIFACTS;
  /** The artifacts grown here: owned copies, since the logged chunk one started from must not grow with it. */
  private grown: Set<Artifact> | undefined;
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
        if (event.status.message) this.addToHistory(event.status.message);
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
    this.history = task.history;
    this.historyOwned = false;
    this.artifacts = NO_ARTIFACTS;
    this.grown = undefined;
    for (const artifact of task.artifacts) this.mergeArtifact(artifact, false);
  }

  private addToHistory(message: Message): void {
    if (this.historyOwned) this.history.push(message);
    else {
      this.history = [...this.history, message];
      this.historyOwned = true;
    }
  }

  /**
   * By a scan, not an index: a task has a handful of artifacts, however many chunks each has. A
   * chunk is kept as logged (events are never touched) until another is appended to it; only then
   * is it copied, once, and grown in place. Most artifacts come in one chunk and cost no copy.
   */
  private mergeArtifact(chunk: Artifact, append: boolean): void {
    const { artifacts } = this;
    const index = artifacts.findIndex((a) => a.artifactId === chunk.artifactId);
    if (index < 0) {
      if (artifacts === NO_ARTIFACTS) this.artifacts = [chunk];
      else artifacts.push(chunk);
      return;
    }
    const current = artifacts[index]!;
    if (!append) {
      this.grown?.delete(current);
      artifacts[index] = chunk;
    } else if (this.grown?.has(current)) {
      current.parts.push(...chunk.parts);
    } else {
      const copy = ownedCopy(current);
      copy.parts.push(...chunk.parts);
      artifacts[index] = copy;
      (this.grown ??= new Set()).add(copy);
    }
  }
}

/** Shared by every task without artifacts yet, never added to: the first artifact replaces it. */
const NO_ARTIFACTS: Artifact[] = [];

/** A copy of the artifact with a parts list of its own, field by field (see lib/objects.ts). */
function ownedCopy(artifact: Artifact): Artifact {
  const copy: Artifact = { artifactId: artifact.artifactId, parts: artifact.parts.slice() };
  if (artifact.name !== undefined) copy.name = artifact.name;
  if (artifact.description !== undefined) copy.description = artifact.description;
  if (artifact.metadata !== undefined) copy.metadata = artifact.metadata;
  if (artifact.extensions !== undefined) copy.extensions = artifact.extensions;
  return copy;
}
