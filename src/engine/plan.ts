/**
 * The pure engine: scenario + input + seeded streams → the turn's `{atMs, event}` entries as plain
 * data. No clock, no I/O: the runner plays them; tests just read them.
 *
 * A task's script runs in turns. A turn starts with the user's message and ends when the task is
 * terminal or paused for input; the pause point says where the next turn resumes.
 *
 * Entries are planned one at a time, as the runner asks for them: a long script costs the memory of
 * its next event, not of all of them. Each task turn draws from its own seeded streams, in the same
 * order however it is consumed, so planning lazily renders exactly what planning at once would.
 */
import type { A2AErrorType } from '../domain/errors.js';
import { isTerminal } from '../domain/lifecycle.js';
import { chooseVariant } from '../domain/media-type.js';
import type { Artifact, Message, Part, TaskState } from '../domain/types.js';
import type { TaskStreams } from '../lib/random.js';
import { END, type Next, type PartTemplate, type Scenario, type Step } from '../scenario/model.js';
import { conditionHolds, type MatchInput } from '../scenario/registry.js';
import { sampleDelay, type DelaySpec } from '../lib/delay.js';
import { merge } from '../lib/objects.js';
import { renderParts, renderText, renderVars, type RenderScope } from './content.js';

export type PlannedEvent =
  | { kind: 'status'; state: TaskState; message?: Message }
  | { kind: 'artifact'; artifact: Artifact; append: boolean; lastChunk: boolean };

export interface TimelineEntry {
  /** Milliseconds after the turn started, before any `--speed` scaling. */
  atMs: number;
  event: PlannedEvent;
}

/** Where a paused script continues: the input step it waits at, by its index in the script's steps. */
export interface PausePoint {
  step: number;
}

export type TurnEnd = { kind: 'finished' } | { kind: 'paused'; pause: PausePoint };

export interface Timeline {
  entries: TimelineEntry[];
  end: TurnEnd;
}

/** A turn being planned: yields its entries in time order, returns how the turn ends. */
export type TurnPlan = Generator<TimelineEntry, TurnEnd, void>;

export interface TurnInput {
  scenario: Scenario;
  /** The user's message that starts this turn. */
  message: Message;
  taskId: string;
  contextId: string;
  /** When the turn starts, epoch milliseconds (for `{{now}}` and faker dates). */
  nowMs: number;
  streams: TaskStreams;
  /** Absent for a new task; the pause point of the previous turn otherwise. */
  resumeFrom?: PausePoint;
  /** The client's `acceptedOutputModes`: they choose among an artifact's or a reply's variants. */
  acceptedOutputModes?: readonly string[];
  /** Merged request and message metadata, for branch conditions. */
  metadata?: MatchInput['metadata'];
}

/**
 * Plans one turn of a task's script, an entry at a time. The turn's vars are rendered before this
 * returns, the entries as they are pulled.
 *
 * @example
 * const plan = startTurn({ scenario, message, taskId, contextId, nowMs, streams: taskStreams('42/t1') });
 * plan.next().value // → { atMs: 0, event: { kind: 'status', state: 'working' } }
 */
export function startTurn(input: TurnInput): TurnPlan {
  if (input.scenario.script.kind !== 'steps') {
    const answer =
      input.scenario.script.kind === 'reply' ? 'replies with a message' : 'answers with an error';
    throw new Error(`Failed to plan a turn: scenario "${input.scenario.id}" ${answer}, not a task.`);
  }
  const { steps } = input.scenario.script;
  const start = input.resumeFrom ? resumeAt(steps, input.resumeFrom, matchInput(input)) : 0;
  return new TurnPlanner(input, steps).run(start);
}

/**
 * The variant the client's acceptedOutputModes choose. The service refuses a message that accepts
 * none before a task exists (it knows every variant's media types): reaching here means it was bypassed.
 */
function accepted<V extends { mediaType?: string }>(
  variants: readonly V[],
  input: Pick<TurnInput, 'scenario' | 'acceptedOutputModes'>,
): V {
  const variant = chooseVariant(variants, input.acceptedOutputModes);
  if (variant) return variant;
  throw new Error(
    `Failed to plan scenario "${input.scenario.id}": acceptedOutputModes ${input.acceptedOutputModes!.join(', ')} accept none of ${variants.map((v) => v.mediaType).join(', ')}.`,
  );
}

/** The whole turn at once: what tests and tools read. */
export function planTurn(input: TurnInput): Timeline {
  const plan = startTurn(input);
  const entries: TimelineEntry[] = [];
  for (let step = plan.next(); ; step = plan.next()) {
    if (step.done) return { entries, end: step.value };
    entries.push(step.value);
  }
}

/** The direct Message a `reply` scenario answers with, and when. */
export function planReply(input: Omit<TurnInput, 'taskId' | 'resumeFrom'>): {
  atMs: number;
  message: Message;
} {
  const script = input.scenario.script;
  if (script.kind !== 'reply') {
    throw new Error(`Failed to plan a reply: scenario "${input.scenario.id}" runs a task, not a reply.`);
  }
  const { message } = accepted(script.variants, input);
  const scope = renderScope(input, '');
  return {
    atMs: sampleDelay(script.after, input.streams.timing),
    message: {
      messageId: input.streams.ids.uuid(),
      role: 'agent',
      parts: renderParts(message, scope),
      contextId: input.contextId,
    },
  };
}

/** The protocol error an `error` scenario answers with, and when; no task is created. */
export function planError(input: Omit<TurnInput, 'taskId' | 'resumeFrom'>): {
  atMs: number;
  type: A2AErrorType;
  message?: string;
} {
  const script = input.scenario.script;
  if (script.kind !== 'error') {
    throw new Error(`Failed to plan an error: scenario "${input.scenario.id}" does not answer with one.`);
  }
  return {
    atMs: sampleDelay(script.after, input.streams.timing),
    type: script.type,
    ...(script.message !== undefined && { message: renderText(script.message, renderScope(input, '')) }),
  };
}

/** The agent message a status update carries. */
export function agentMessage(
  parts: readonly PartTemplate[],
  scope: RenderScope,
  input: Pick<TurnInput, 'streams' | 'taskId' | 'contextId'>,
): Message {
  return {
    messageId: input.streams.ids.uuid(),
    role: 'agent',
    parts: renderParts(parts, scope),
    taskId: input.taskId,
    contextId: input.contextId,
  };
}

/** Renders a message outside any turn, e.g. the status message of a cancel taking effect. */
export function standaloneMessage(parts: readonly PartTemplate[], input: TurnInput): Message {
  return agentMessage(parts, renderScope(input, input.taskId), input);
}

/** The first branch of the paused input step that the follow-up matches leads on; none, its `next`. */
function resumeAt(steps: readonly Step[], pause: PausePoint, input: MatchInput): Next {
  const question = steps[pause.step];
  if (question?.kind !== 'input') {
    throw new Error(`Failed to resume: step ${pause.step} of the script is not an input step.`);
  }
  return question.branches.find((b) => conditionHolds(b.when, input))?.next ?? question.next;
}

class TurnPlanner {
  private readonly scope: RenderScope;
  private atMs = 0;

  constructor(
    private readonly input: TurnInput,
    private readonly steps: readonly Step[],
  ) {
    this.scope = renderScope(input, input.taskId);
  }

  /** Follows `next` from `at`; the loader made sure every way pauses or ends before it runs out. */
  *run(at: Next): TurnPlan {
    for (; at !== END; at = this.steps[at]!.next) {
      const step = this.steps[at]!;
      switch (step.kind) {
        case 'wait':
          this.atMs += this.delay(step.delay);
          break;
        case 'status':
          this.atMs += this.delay(step.after);
          yield this.entry({ kind: 'status', state: step.state, ...this.message(step.message) });
          if (isTerminal(step.state)) return { kind: 'finished' };
          break;
        case 'artifact':
          this.atMs += this.delay(step.after);
          yield* this.artifact(step);
          break;
        case 'input':
          this.atMs += this.delay(step.after);
          yield this.entry({ kind: 'status', state: step.state, ...this.message(step.message) });
          return { kind: 'paused', pause: { step: at } };
      }
    }
    // The loader rejects scripts that can run out of steps; reaching here means it was bypassed.
    throw new Error(`Failed to plan scenario "${this.input.scenario.id}": the script ran out of steps.`);
  }

  private *artifact(step: Extract<Step, { kind: 'artifact' }>): Generator<TimelineEntry, void, void> {
    const artifactId =
      step.id === undefined ? this.input.streams.ids.uuid() : renderText(step.id, this.scope);
    const header = {
      artifactId,
      ...(step.name !== undefined && { name: renderText(step.name, this.scope) }),
      ...(step.description !== undefined && { description: renderText(step.description, this.scope) }),
      ...(step.metadata !== undefined && { metadata: step.metadata }),
    };
    const { chunks } = accepted(step.variants, this.input);
    for (const [i, chunk] of chunks.entries()) {
      if (i > 0) this.atMs += this.delay(step.every[(i - 1) % step.every.length]!);
      const parts: Part[] = renderParts(chunk, this.scope);
      yield this.entry({
        kind: 'artifact',
        artifact: merge(header, { parts }),
        append: i > 0 || step.append,
        lastChunk: i === chunks.length - 1,
      });
    }
  }

  private message(parts: readonly PartTemplate[] | undefined): { message?: Message } {
    return parts ? { message: agentMessage(parts, this.scope, this.input) } : {};
  }

  private delay(spec: DelaySpec): number {
    return sampleDelay(spec, this.input.streams.timing);
  }

  private entry(event: PlannedEvent): TimelineEntry {
    return { atMs: this.atMs, event };
  }
}

/** The turn's template scope; rendering the scenario's `vars` is the turn's first use of its content stream. */
function renderScope(input: Omit<TurnInput, 'taskId'>, taskId: string): RenderScope {
  const base = {
    inputText: textOf(input.message),
    inputMessageId: input.message.messageId,
    taskId,
    contextId: input.contextId,
    nowMs: input.nowMs,
    random: input.streams.content,
  };
  return merge(base, { vars: renderVars(input.scenario.vars, base) });
}

function matchInput(input: TurnInput): MatchInput {
  return { text: textOf(input.message), messageId: input.message.messageId, metadata: input.metadata ?? {} };
}

/** The text parts of a message, joined by newlines: what matching and `{{input.text}}` see. */
export function textOf(message: Message): string {
  let text: string | undefined;
  for (const part of message.parts) {
    if (part.kind === 'text') text = text === undefined ? part.text : `${text}\n${part.text}`;
  }
  return text ?? '';
}
