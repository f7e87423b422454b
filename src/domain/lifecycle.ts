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
 * A task as its events have made it so far. Status messages join the history, as the reference SDK
 * records them; artifact chunks with `append` extend the artifact already sent under that id.
 *
 * Each event costs the same however long the history or an artifact has grown: the lists grow in
 * place, and a {@link Task} is copied out only when someone asks for one (and kept until the next
 * event), so a stream of a thousand appended chunks does not copy the artifact a thousand times.
 * Events and snapshots handed out are never touched afterwards.
 */
export class LiveTask {
  private current!: Omit<Task, 'status' | 'artifacts' | 'history'>;
  private statusNow!: TaskStatus;
  private history!: Message[];
  /** Owned copies: the logged chunk an artifact started from must not grow with it. */
  private artifacts!: Artifact[];
  private artifactIndex!: Map<string, number>;
  private snapshotCache: Task | undefined;

  constructor(task: Task) {
    this.reset(task);
  }

  get id(): string {
    return this.current.id;
  }

  get contextId(): string {
    return this.current.contextId;
  }

  get status(): TaskStatus {
    return this.statusNow;
  }

  apply(event: TaskEvent): void {
    this.snapshotCache = undefined;
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

  /** The task as a value; the same object until the next event. */
  snapshot(): Task {
    this.snapshotCache ??= {
      ...this.current,
      status: this.statusNow,
      artifacts: this.artifacts.map((a) => ({ ...a, parts: a.parts.slice() })),
      history: this.history.slice(),
    };
    return this.snapshotCache;
  }

  private reset(task: Task): void {
    const { status, artifacts, history, ...rest } = task;
    this.current = rest;
    this.statusNow = status;
    this.history = history.slice();
    this.artifacts = [];
    this.artifactIndex = new Map();
    for (const artifact of artifacts) this.mergeArtifact(artifact, false);
  }

  private mergeArtifact(chunk: Artifact, append: boolean): void {
    const index = this.artifactIndex.get(chunk.artifactId);
    if (index === undefined) {
      this.artifactIndex.set(chunk.artifactId, this.artifacts.length);
      this.artifacts.push(owned(chunk));
    } else if (append) {
      this.artifacts[index]!.parts.push(...chunk.parts);
    } else {
      this.artifacts[index] = owned(chunk);
    }
  }
}

function owned(artifact: Artifact): Artifact {
  return { ...artifact, parts: artifact.parts.slice() };
}
