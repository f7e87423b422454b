/**
 * Collects what went through the proxy as conversations: the user's first message, each later
 * turn's answer, and every event of the task with the time it arrived, or the Message or error that
 * answered instead of a task. Only proxied tasks are collected; scripted ones are the simulator's own.
 * What it keeps is counted: the store forgets tasks, a recording would keep their events for as long
 * as it runs, so past its budget it records no more and says how many conversations it left out.
 */
import type { A2AError } from '../domain/errors.js';
import { eventBytes, messageBytes } from '../domain/size.js';
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
  /** In the order they began; one cut short leaves. */
  private readonly conversations = new Set<Conversation>();
  /** New conversations by their first message id, until their task (or answer) shows up. */
  private readonly pending = new Map<string, Conversation>();
  private readonly byTask = new Map<string, Conversation>();

  private bytes = 0;
  /** Conversations the recording had no room for, or cut short. */
  private leftOut = 0;

  constructor(
    proxy: ProxyService,
    store: TaskStore,
    /** What its conversations' messages and events may hold, approximately (domain/size.ts). */
    private readonly maxBytes: number,
  ) {
    proxy.observe({
      turn: (message, atMs) => {
        const turn: Turn = { message, sentAtMs: atMs, events: [] };
        if (message.taskId === undefined) {
          if (!this.fits(messageBytes(message))) return void this.leftOut++;
          const conversation: Conversation = { turns: [turn] };
          this.conversations.add(conversation);
          this.pending.set(message.messageId, conversation);
        } else {
          const conversation = this.byTask.get(message.taskId);
          if (conversation && this.grows(conversation, messageBytes(message))) conversation.turns.push(turn);
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
        const bytes = 'error' in outcome ? outcome.error.message.length : messageBytes(outcome.message);
        if (!this.grows(conversation, bytes)) return;
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
      if (!this.grows(conversation, eventBytes(logged.event))) return;
      conversation.turns.at(-1)!.events.push({ atMs: logged.atMs, event: logged.event });
    });
  }

  /** The whole conversations that reached an answer, oldest first. */
  list(): Conversation[] {
    return [...this.conversations].filter((c) => c.outcome !== undefined);
  }

  /** Conversations left out because the recording was full (`maxBytes`): none were written whole. */
  get skipped(): number {
    return this.leftOut;
  }

  /** Counts `bytes` more, if they fit. */
  private fits(bytes: number): boolean {
    if (this.bytes + bytes > this.maxBytes) return false;
    this.bytes += bytes;
    return true;
  }

  /**
   * Whether the conversation may take `bytes` more; one that may not is cut short and forgotten (no
   * map leads to it again), its turns dropped.
   */
  private grows(conversation: Conversation, bytes: number): boolean {
    if (this.fits(bytes)) return true;
    this.leftOut++;
    // What it held goes back to the others: it is not written.
    for (const turn of conversation.turns) {
      this.bytes -= messageBytes(turn.message);
      for (const { event } of turn.events) this.bytes -= eventBytes(event);
    }
    this.conversations.delete(conversation);
    const { messageId } = conversation.turns[0]!.message;
    if (this.pending.get(messageId) === conversation) this.pending.delete(messageId);
    if (conversation.outcome?.kind === 'task') this.byTask.delete(conversation.outcome.taskId);
    conversation.turns = [];
    return false;
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
      const event: TaskEvent = { kind: 'status', status };
      if (this.grows(conversation, eventBytes(event))) conversation.turns[0]!.events.push({ atMs, event });
    }
  }
}
