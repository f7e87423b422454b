/**
 * The witness: a layer of every agent's call pipeline, between the bindings and chaos, that tells
 * the judge what each client did and what it was given. It fills in the call's exchange record (the
 * task and state an answer showed, the events a stream delivered with chaos's made-up ones marked,
 * how the stream ended, the error and its Retry-After) and hands the record to the judge, whose rules
 * read it. It changes nothing on the way.
 */
import type { Exchange, Delivered, DeliveredFacts, StreamEnd } from '../calls/exchange.js';
import type { OperationName } from '../calls/operations.js';
import type { Layer } from '../calls/pipeline.js';
import type { WireItem, WireSink, WireStream } from '../calls/wire.js';
import { isTerminal, stateShownBy } from '../domain/lifecycle.js';
import type { SendResult, Task, TaskState } from '../domain/types.js';
import type { Clock } from '../lib/clock.js';
import type { Judge } from './judge.js';

/** The events of one stream the judge keeps; past them, the rules that need them all step aside. */
const MAX_DELIVERED = 20_000;

/** The operations the rules judge; the others pass unwatched. */
const WATCHED: ReadonlySet<OperationName> = new Set(['send', 'stream', 'get', 'cancel', 'subscribe']);

export function witnessLayer(judge: Judge, clock: Clock): Layer {
  return async (call, next) => {
    const { operation: op, exchange, ctx } = call;
    const { client } = ctx;
    if (!WATCHED.has(op.name) || !client) return next(call);
    if (op.name === 'send' || op.name === 'stream') {
      const continues = op.request.message.taskId;
      if (continues !== undefined) {
        exchange.about(continues);
        exchange.continues = exchange.taskId;
      }
    } else if ('taskId' in op) {
      exchange.about(op.taskId);
      if (op.name === 'subscribe' && op.afterSeq !== undefined) exchange.cursor = op.afterSeq;
    }
    judge.observe(client, exchange);
    const settled = () => {
      exchange.endedAtMs = clock.now();
      judge.updated(client);
    };
    let answer;
    try {
      answer = await next(call);
    } catch (error) {
      exchange.refused(error);
      settled();
      throw error;
    }
    switch (op.name) {
      case 'send': {
        const result = answer as SendResult;
        if (result.kind === 'task') showed(exchange, result.task);
        break;
      }
      case 'get':
      case 'cancel':
        showed(exchange, answer as Task);
        break;
      default:
        settled();
        return watched(
          exchange,
          answer as WireStream,
          (delivered) => judge.updated(client, delivered),
          clock,
        );
    }
    settled();
    return answer;
  };
}

/**
 * Judges a call its binding refused while reading it (a bad cursor header, bad params), before any
 * layer saw it, as the client's call of that operation: the rules count a refused resume as well.
 */
export function witnessRefused(judge: Judge, clock: Clock): (exchange: Exchange) => void {
  return (exchange) => {
    const { client, kind } = exchange;
    if (!client || kind === undefined || kind === 'card' || !WATCHED.has(kind)) return;
    exchange.endedAtMs = clock.now();
    judge.observe(client, exchange);
  };
}

function showed(exchange: Exchange, task: Pick<Task, 'id' | 'status'>): void {
  exchange.taskId = task.id;
  exchange.state = task.status.state;
}

/** The stream as the connection gets it, each item noted as it goes out. */
function watched(
  exchange: Exchange,
  stream: WireStream,
  updated: (delivered?: readonly Delivered[]) => void,
  clock: Clock,
): WireStream {
  const note = deliveryRecord(exchange);
  if (stream.taskId !== undefined) exchange.taskId = stream.taskId;
  let counted = false;
  const finish = (ended: StreamEnd) => {
    // A drop chaos made look like a clean end was already recorded as a cut.
    exchange.ended ??= ended;
    exchange.endedAtMs = clock.now();
    // What the stream delivered counts against the judge's budget once, when it ends.
    updated(counted ? undefined : exchange.delivered);
    counted = true;
  };
  return {
    taskId: stream.taskId,
    holdsHeaders: stream.holdsHeaders,
    start: (sink: WireSink) =>
      stream.start({
        item: (item: WireItem) => {
          if (item.kind !== 'keep-alive') exchange.sent++;
          note(item);
          sink.item(item);
        },
        end: (error) => {
          finish(error ? 'error' : 'clean');
          sink.end(error);
        },
        open: () => sink.open(),
        abort: (mode) => {
          finish('cut');
          sink.abort(mode);
        },
      }),
    stop: () => {
      finish('closed');
      stream.stop();
    },
  };
}

/**
 * Starts the record of what a stream delivers (`delivered`, and `deliveredClipped` past
 * {@link MAX_DELIVERED}); answers what notes each item as it goes out.
 */
export function deliveryRecord(
  record: Pick<Exchange, 'delivered' | 'deliveredClipped'>,
): (item: WireItem) => void {
  const delivered: Delivered[] = (record.delivered = []);
  /** The state of the last real event (or snapshot) kept with one. */
  let shown: TaskState | undefined;
  return (item) => {
    const seen = deliveredOf(item, shown);
    if (seen === undefined) return;
    if (typeof seen !== 'number' && !seen.synthetic && seen.state !== undefined) shown = seen.state;
    if (delivered.length < MAX_DELIVERED) delivered.push(seen);
    else record.deliveredClipped = true;
  };
}

/**
 * What the judge keeps of an item: nothing for a keep-alive or a message; a real event that shows
 * no state, or the same state other than a terminal one as the last kept (`shown`: a tick of a
 * working task, a chunk), and carries no generation, as its seq alone. The rules read the states a
 * stream showed only for its last one, its terminal one and the quirks' made-up ones, which all stay.
 */
function deliveredOf(item: WireItem, shown: TaskState | undefined): Delivered | undefined {
  switch (item.kind) {
    case 'keep-alive':
    case 'message':
      return undefined;
    case 'snapshot': {
      const facts: DeliveredFacts = { state: item.task.status.state };
      if (item.task.generation !== undefined) facts.generation = item.task.generation;
      return facts;
    }
    case 'event': {
      const { event, generation, seq } = item.event;
      const state = stateShownBy(event);
      if (item.synthetic) return state === undefined ? { synthetic: true } : { synthetic: true, state };
      if (generation === undefined && (state === undefined || (state === shown && !isTerminal(state))))
        return seq;
      // Set field by field: a literal with spread parts got a hidden class of its own each time.
      const facts: DeliveredFacts = { seq };
      if (state !== undefined) facts.state = state;
      if (generation !== undefined) facts.generation = generation;
      return facts;
    }
  }
}
