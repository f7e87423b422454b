/**
 * Bench comparator: a bare express 5 server doing the work of a blocking `message:send` that the
 * simulator does for the `weather` scenario, and no more: parse the JSON body, create a task with
 * fresh ids, store it in a Map, answer with the completed Task. Same wire shapes as the simulator
 * (REST `POST /message:send`, `GET /tasks/{id}`, JSON-RPC `SendMessage` and v0.3 `message/send` on
 * `POST /`), so the load generator sends identical requests to both. `POST /message:stream` plays
 * the bench-ticks and bench-chunks streams the way a straightforward server would: a setTimeout
 * chain per stream, no event log, no resumption.
 *
 * The work itself is ./work.ts, shared with the plain node:http comparator (./node-server.ts): this
 * file is only the express front (its router, `express.json()`, `res.json()`), which is what the two
 * comparators' figures tell apart. Flags: `--speed N`, `--ticks N`, `--chunks N` (./work.ts).
 *
 * Prints `listening on http://127.0.0.1:PORT` once it accepts connections.
 */
import express, { type Request, type Response } from 'express';
import { answerGet, answerRpc, answerSend, playStream, responseSink, type Answer } from './work.js';

const reply = (res: Response, { status, body }: Answer) => void res.status(status).json(body);

const app = express();
app.disable('x-powered-by');
app.use(express.json({ type: ['application/json', 'application/a2a+json'], limit: '4mb' }));

app.post(/^\/message:send$/, (req: Request, res: Response) => reply(res, answerSend(req.body)));

app.post(/^\/message:stream$/, (req: Request, res: Response) => {
  const refused = playStream(req.body, responseSink(res));
  if (refused) reply(res, refused);
});

app.get('/tasks/:id', (req: Request, res: Response) => reply(res, answerGet(String(req.params.id))));

app.post('/', (req: Request, res: Response) => reply(res, answerRpc(req.body)));

const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') {
    process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
  }
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
