/**
 * The work of the two bare comparators, express (express-server.ts) and plain node:http
 * (node-server.ts), written once so that the two differ only in their HTTP front: how a request is
 * routed, how its body is read and parsed, how an answer is written. Here: the tasks (fresh ids,
 * stored in a Map, answered completed, v1.0 or v0.3 shapes) and the bench's SSE streams, played from
 * one setTimeout chain per stream onto a {@link StreamSink}, keeping nothing but the task.
 *
 * Streams, by messageId prefix:
 * - `bench-ticks-` plays bench/scenarios/bench-ticks.yaml: the Task, then a WORKING status update
 *   saying `tick k` at k × 100 ms after the task's creation, `--ticks N` of them (default 150), then
 *   COMPLETED one step later;
 * - `bench-chunks-` plays bench-chunks.yaml: the Task, then one artifact in `--chunks N` chunks
 *   (default 100), chunk K at K × 100 ms after creation saying `chunk K: ` and a fresh
 *   faker.lorem.sentence of 8–14 words (the simulator renders the same template through faker),
 *   `append` from the second, `lastChunk` on the last, each appended to the stored task's artifact;
 *   then COMPLETED at once, as the simulator does.
 * Every delay is divided by `--speed N`. faker is loaded by the first chunks stream, not at
 * startup: the startup workload times these servers too, and the bench's warm-up stream pays it.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import type { Faker } from '@faker-js/faker';

type Json = Record<string, unknown>;
interface Part {
  text?: string;
  kind?: string;
}
export interface IncomingMessage {
  messageId?: string;
  contextId?: string;
  role?: string;
  parts?: Part[];
}

/** What a front writes back as JSON: the HTTP status and the body. */
export interface Answer {
  status: number;
  body: unknown;
}

const { values: flags } = parseArgs({
  options: {
    speed: { type: 'string', default: '1' },
    ticks: { type: 'string', default: '150' },
    chunks: { type: 'string', default: '100' },
  },
});
const STEP_MS = 100 / Number(flags.speed);
const TICKS = Number(flags.ticks);
const CHUNKS = Number(flags.chunks);
/** faker.lorem.sentence's word count, as bench-chunks.yaml asks for it. */
const SENTENCE_WORDS = { min: 8, max: 14 };
const WEATHER = 'Today will be sunny with a high of 71°F';

const tasks = new Map<string, Json>();

/** Creates and stores a completed task for `message`; v1.0 shapes. */
function completeTask(message: IncomingMessage): Json {
  const id = randomUUID();
  const contextId = message.contextId ?? randomUUID();
  const timestamp = new Date().toISOString();
  const task: Json = {
    id,
    contextId,
    status: { state: 'TASK_STATE_COMPLETED', timestamp },
    artifacts: [{ artifactId: randomUUID(), name: 'Weather Report', parts: [{ text: WEATHER }] }],
    history: [{ ...message, taskId: id, contextId }],
  };
  tasks.set(id, task);
  return task;
}

const badRequest = (detail: string): Answer => ({
  status: 400,
  body: { error: { code: 400, status: 'INVALID_ARGUMENT', message: detail } },
});

const messageOf = (body: unknown) => (body as { message?: IncomingMessage } | undefined)?.message;

/** REST `POST /message:send`. */
export function answerSend(body: unknown): Answer {
  const message = messageOf(body);
  if (!message || !Array.isArray(message.parts)) return badRequest('message is required');
  return { status: 200, body: { task: completeTask(message) } };
}

/** REST `GET /tasks/{id}`. */
export function answerGet(id: string): Answer {
  const task = tasks.get(id);
  return task
    ? { status: 200, body: task }
    : { status: 404, body: { error: { code: 404, status: 'NOT_FOUND' } } };
}

/** JSON-RPC on `POST /`: 1.0 `SendMessage` and 0.3 `message/send`. */
export function answerRpc(rawBody: unknown): Answer {
  const body = (rawBody ?? {}) as { id?: unknown; method?: string; params?: { message?: IncomingMessage } };
  const message = body.params?.message;
  const rpc = (fields: Json): Answer => ({
    status: 200,
    body: { jsonrpc: '2.0', id: body.id ?? null, ...fields },
  });
  if (!message || !Array.isArray(message.parts))
    return rpc({ error: { code: -32602, message: 'Invalid params' } });
  if (body.method === 'SendMessage') return rpc({ result: { task: completeTask(message) } });
  if (body.method !== 'message/send') return rpc({ error: { code: -32601, message: 'Method not found' } });
  // v0.3 shapes: `kind` on every object, lowercase states.
  const v1 = completeTask({ ...message, role: 'ROLE_USER' });
  const status = v1.status as { timestamp: string };
  return rpc({
    result: {
      kind: 'task',
      id: v1.id,
      contextId: v1.contextId,
      status: { state: 'completed', timestamp: status.timestamp },
      artifacts: [
        { artifactId: randomUUID(), name: 'Weather Report', parts: [{ kind: 'text', text: WEATHER }] },
      ],
      history: [{ ...message, kind: 'message', taskId: v1.id, contextId: v1.contextId }],
    },
  });
}

// ---------------------------------------------------------------------------------------- streams

/** Where a stream's frames go: the front's response. */
export interface StreamSink {
  /** Status line and headers; called once, before the first frame. */
  open(): void;
  /** One SSE frame, `data: …\n\n`. */
  send(frame: string): void;
  end(): void;
  /** `stop` is called when the client goes away (or the stream ended). */
  onClose(stop: () => void): void;
}

const SSE_HEADERS = Object.freeze({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });

/** The sink both fronts use: an express Response is a node:http ServerResponse. */
export function responseSink(res: ServerResponse): StreamSink {
  return {
    open: () => res.writeHead(200, SSE_HEADERS),
    send: (frame) => res.write(frame),
    end: () => res.end(),
    onClose: (stop) => res.on('close', stop),
  };
}

let faker: Faker | undefined;
let fakerLoading: Promise<unknown> | undefined;
/** Runs `then` once faker is loaded: at once after the first time. */
function withFaker(then: () => void): void {
  if (faker) return then();
  fakerLoading ??= import('@faker-js/faker/locale/en').then((module) => (faker = module.faker));
  void fakerLoading.then(then);
}

const frame = (event: Json) => `data: ${JSON.stringify(event)}\n\n`;

/**
 * REST `POST /message:stream` of a bench stream: plays it onto `sink` and returns undefined, or
 * returns the 400 that says it is not one.
 */
export function playStream(body: unknown, sink: StreamSink): Answer | undefined {
  const message = messageOf(body);
  const kind = /^bench-(ticks|chunks)-/.exec(message?.messageId ?? '')?.[1];
  if (!message || !kind)
    return badRequest('only bench-ticks and bench-chunks streams (messageId "bench-…-")');
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  sink.onClose(() => {
    closed = true;
    clearTimeout(timer);
  });
  const start = () => {
    if (closed) return;
    const id = randomUUID();
    const contextId = message.contextId ?? randomUUID();
    const createdAt = Date.now();
    const task: Json = {
      id,
      contextId,
      status: { state: 'TASK_STATE_SUBMITTED', timestamp: new Date(createdAt).toISOString() },
      history: [{ ...message, taskId: id, contextId }],
    };
    tasks.set(id, task);
    sink.open();
    sink.send(frame({ task }));
    const events = kind === 'ticks' ? tickEvents(task) : chunkEvents(task);
    let k = 0;
    // Against the creation time, not the previous event, so that a late timer does not delay the rest.
    const schedule = () => {
      timer = setTimeout(fire, Math.max(0, createdAt + (k + 1) * STEP_MS - Date.now()));
    };
    const fire = () => {
      k++;
      const more = events(k, (event) => sink.send(frame(event)));
      if (more) schedule();
      else sink.end();
    };
    schedule();
  };
  if (kind === 'chunks') withFaker(start);
  else start();
  return undefined;
}

/** Sends what is due at step k of a stream; false once the stream is over. */
type Events = (k: number, send: (event: Json) => void) => boolean;

const completed = (task: Json): Json => {
  const status = { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() };
  task.status = status;
  return { statusUpdate: { taskId: task.id, contextId: task.contextId, status } };
};

/** Tick k at step k, COMPLETED at step TICKS + 1; the task keeps its latest status only. */
function tickEvents(task: Json): Events {
  const { id: taskId, contextId } = task;
  return (k, send) => {
    if (k > TICKS) {
      send(completed(task));
      return false;
    }
    const status = {
      state: 'TASK_STATE_WORKING',
      timestamp: new Date().toISOString(),
      message: {
        messageId: randomUUID(),
        taskId,
        contextId,
        role: 'ROLE_AGENT',
        parts: [{ text: `tick ${k}` }],
      },
    };
    task.status = status;
    send({ statusUpdate: { taskId, contextId, status } });
    return true;
  };
}

/** Chunk K at step K, each part appended to the task's one artifact; COMPLETED with the last. */
function chunkEvents(task: Json): Events {
  const { id: taskId, contextId } = task;
  const artifactId = randomUUID();
  const kept = { artifactId, name: 'Answer', parts: [] as Json[] };
  task.artifacts = [kept];
  return (k, send) => {
    const part = { text: `chunk ${k}: ${faker!.lorem.sentence(SENTENCE_WORDS)}` };
    kept.parts.push(part);
    const update: Json = { taskId, contextId, artifact: { artifactId, name: 'Answer', parts: [part] } };
    if (k > 1) update.append = true;
    if (k === CHUNKS) update.lastChunk = true;
    send({ artifactUpdate: update });
    if (k < CHUNKS) return true;
    send(completed(task));
    return false;
  };
}
