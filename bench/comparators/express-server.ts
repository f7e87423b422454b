/**
 * Bench comparator: a bare express 5 server doing the work of a blocking `message:send` that the
 * simulator does for the `weather` scenario, and no more: parse the JSON body, create a task with
 * fresh ids, store it in a Map, answer with the completed Task. Same wire shapes as the simulator
 * (REST `POST /message:send`, `GET /tasks/{id}`, JSON-RPC `SendMessage` and v0.3 `message/send` on
 * `POST /`), so the load generator sends identical requests to both.
 *
 * For the SSE workloads it also answers `POST /message:stream` the way a straightforward server
 * would play bench/scenarios/bench-ticks.yaml: the Task first, then a WORKING status update saying
 * `tick k` at k × 100 ms after the task's creation (divided by `--speed N`), one setTimeout chain
 * per stream, `--ticks N` of them (default 150), then COMPLETED; no event log, no resumption.
 *
 * Prints `listening on http://127.0.0.1:PORT` once it accepts connections.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import express, { type Request, type Response } from 'express';

type Json = Record<string, unknown>;
interface Part {
  text?: string;
  kind?: string;
}
interface IncomingMessage {
  messageId?: string;
  contextId?: string;
  role?: string;
  parts?: Part[];
}

const { values: flags } = parseArgs({
  options: { speed: { type: 'string', default: '1' }, ticks: { type: 'string', default: '150' } },
});
const TICK_MS = 100 / Number(flags.speed);
const TICKS = Number(flags.ticks);

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
    artifacts: [
      {
        artifactId: randomUUID(),
        name: 'Weather Report',
        parts: [{ text: 'Today will be sunny with a high of 71°F' }],
      },
    ],
    history: [{ ...message, taskId: id, contextId }],
  };
  tasks.set(id, task);
  return task;
}

function badRequest(res: Response, detail: string): void {
  res.status(400).json({ error: { code: 400, status: 'INVALID_ARGUMENT', message: detail } });
}

const app = express();
app.disable('x-powered-by');
app.use(express.json({ type: ['application/json', 'application/a2a+json'], limit: '4mb' }));

app.post(/^\/message:send$/, (req: Request, res: Response) => {
  const message = (req.body as { message?: IncomingMessage } | undefined)?.message;
  if (!message || !Array.isArray(message.parts)) return badRequest(res, 'message is required');
  res.json({ task: completeTask(message) });
});

app.post(/^\/message:stream$/, (req: Request, res: Response) => {
  const message = (req.body as { message?: IncomingMessage } | undefined)?.message;
  if (!message?.messageId?.startsWith('bench-ticks-'))
    return badRequest(res, 'only bench-ticks streams (messageId "bench-ticks-…")');
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
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const send = (event: Json) => res.write(`data: ${JSON.stringify(event)}\n\n`);
  send({ task });
  let k = 0;
  let timer: NodeJS.Timeout;
  // Against the creation time, not the previous tick, so that a late timer does not delay the rest.
  const schedule = () => {
    timer = setTimeout(tick, Math.max(0, createdAt + (k + 1) * TICK_MS - Date.now()));
  };
  const tick = () => {
    k++;
    const timestamp = new Date().toISOString();
    const status =
      k > TICKS
        ? { state: 'TASK_STATE_COMPLETED', timestamp }
        : {
            state: 'TASK_STATE_WORKING',
            timestamp,
            message: {
              messageId: randomUUID(),
              taskId: id,
              contextId,
              role: 'ROLE_AGENT',
              parts: [{ text: `tick ${k}` }],
            },
          };
    task.status = status;
    send({ statusUpdate: { taskId: id, contextId, status } });
    if (k > TICKS) res.end();
    else schedule();
  };
  schedule();
  res.on('close', () => clearTimeout(timer));
});

app.get('/tasks/:id', (req: Request, res: Response) => {
  const task = tasks.get(String(req.params.id));
  if (!task) return void res.status(404).json({ error: { code: 404, status: 'NOT_FOUND' } });
  res.json(task);
});

app.post('/', (req: Request, res: Response) => {
  const body = req.body as { id?: unknown; method?: string; params?: { message?: IncomingMessage } };
  const message = body.params?.message;
  if (!message || !Array.isArray(message.parts)) {
    return void res.json({
      jsonrpc: '2.0',
      id: body.id ?? null,
      error: { code: -32602, message: 'Invalid params' },
    });
  }
  if (body.method === 'SendMessage') {
    return void res.json({ jsonrpc: '2.0', id: body.id, result: { task: completeTask(message) } });
  }
  if (body.method === 'message/send') {
    // v0.3 shapes: `kind` on every object, lowercase states.
    const v1 = completeTask({ ...message, role: 'ROLE_USER' });
    const status = v1.status as { timestamp: string };
    return void res.json({
      jsonrpc: '2.0',
      id: body.id,
      result: {
        kind: 'task',
        id: v1.id,
        contextId: v1.contextId,
        status: { state: 'completed', timestamp: status.timestamp },
        artifacts: [
          {
            artifactId: randomUUID(),
            name: 'Weather Report',
            parts: [{ kind: 'text', text: 'Today will be sunny with a high of 71°F' }],
          },
        ],
        history: [{ ...message, kind: 'message', taskId: v1.id, contextId: v1.contextId }],
      },
    });
  }
  res.json({ jsonrpc: '2.0', id: body.id ?? null, error: { code: -32601, message: 'Method not found' } });
});

const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') {
    process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
  }
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
