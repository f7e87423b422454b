/**
 * Collects what went through the proxy as conversations: the user's first message, each later
 * turn's answer, and every event of the task with the time it arrived, or the Message or error that
 * answered instead of a task. Only proxied tasks are collected; scripted ones are the simulator's own.
 */
import type { A2AError } from '../domain/errors.js';
import type { Message, TaskEvent } from '../domain/types.js';
import { PROXIED, type ProxyService } from '../runtime/proxy.js';
import type { TaskRecord, TaskStore } from '../store/task-store.js';

export interface Turn {
  /** What the user sent to start the turn. */
  message: Message;
  sentAtMs: number;
  /** The agent's events in this turn, with the clock time each arrived. */
  events: { atMs: number; event: TaskEvent }[];
  /** When a client asked to cancel the task during this turn. */
  cancelAtMs?: number;
}

export type Outcome =
  | { kind: 'task'; taskId: string; contextId: string }
  | { kind: 'message'; message: Message; atMs: number }
  | { kind: 'error'; error: A2AError; atMs: number };

export interface Conversation {
  turns: Turn[];
  outcome?: Outcome;
}

export class ConversationLog {
  private readonly conversations: Conversation[] = [];
  /** New conversations by their first message id, until their task (or answer) shows up. */
  private readonly pending = new Map<string, Conversation>();
  private readonly byTask = new Map<string, Conversation>();

  constructor(proxy: ProxyService, store: TaskStore) {
    proxy.observe({
      turn: (message, atMs) => {
        const turn: Turn = { message, sentAtMs: atMs, events: [] };
        if (message.taskId === undefined) {
          const conversation: Conversation = { turns: [turn] };
          this.conversations.push(conversation);
          this.pending.set(message.messageId, conversation);
        } else {
          this.byTask.get(message.taskId)?.turns.push(turn);
        }
      },
      cancel: (taskId, atMs) => {
        const turn = this.byTask.get(taskId)?.turns.at(-1);
        if (turn && turn.cancelAtMs === undefined) turn.cancelAtMs = atMs;
      },
      answer: (message, outcome, atMs) => {
        const conversation = this.pending.get(message.messageId);
        if (!conversation) return;
        this.pending.delete(message.messageId);
        conversation.outcome =
          'error' in outcome
            ? { kind: 'error', error: outcome.error, atMs }
            : { kind: 'message', message: outcome.message, atMs };
      },
    });
    store.onEvent((record: TaskRecord, logged) => {
      if (record.scenarioId !== PROXIED) return;
      if (logged.seq === 1) return this.opened(record);
      const conversation = this.byTask.get(record.id);
      // A turn's opening snapshot repeats what the turn's message already says.
      if (!conversation || logged.event.kind === 'task') return;
      conversation.turns.at(-1)!.events.push({ atMs: logged.atMs, event: logged.event });
    });
  }

  /** The conversations that reached an answer, oldest first. */
  list(): Conversation[] {
    return this.conversations.filter((c) => c.outcome !== undefined);
  }

  private opened(record: TaskRecord): void {
    const first = record.task.history[0];
    const conversation = first && this.pending.get(first.messageId);
    if (!conversation) return;
    this.pending.delete(first.messageId);
    conversation.outcome = { kind: 'task', taskId: record.id, contextId: record.contextId };
    this.byTask.set(record.id, conversation);
    // A replayed task starts `submitted` by itself; an agent's task that opened further along
    // (`working`) has that as the first step. (One that arrives with results opens as submitted in
    // the proxy, and its results follow as events.)
    const { status } = record;
    if (status.state !== 'submitted') {
      const atMs = record.log.readAfter(0)[0]?.atMs ?? conversation.turns[0]!.sentAtMs;
      conversation.turns[0]!.events.push({ atMs, event: { kind: 'status', status } });
    }
  }
}
