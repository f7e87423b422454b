/**
 * `sim.app` mounted in an express app of the user's own, which is what it is for: the app has its
 * own middleware in front (a request logger, `express.json()` and `express.urlencoded()` applied to
 * every request) and its own routes, mounts the simulator at its root and listens on a port of its
 * own. The conformance cases pass through it on every binding, streams arrive as they happen, and
 * bodies a parser in front already read are taken from `req.body`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorOptions } from '../../src/index.js';
import { flushIo, startSim, type TestSim } from '../helpers/sim.js';
import { postSse, type SseEvent } from '../helpers/sse.js';
import {
  admin,
  callJson,
  getJson,
  JSON_HEADERS,
  postJson,
  rpc,
  v1Send,
  V1_HEADERS,
} from '../helpers/wire.js';
import { conformanceCases } from './conformance.cases.js';
import { ALL_DRIVERS } from './all-drivers.js';
import { restDriver } from './drivers.js';

/** What a user's app puts in front of everything when no test says otherwise. */
const USUAL_PARSERS: RequestHandler[] = [express.json(), express.urlencoded({ extended: false })];

interface MountedSim extends TestSim {
  /** The simulator on its own port, beside the app's. */
  ownUrl: string;
  /** `METHOD /path STATUS`, as the app's logger wrote each request once its answer ended. */
  requests: string[];
}

/**
 * Starts a simulator and an express app of the user's own that mounts `sim.app` at its root, behind
 * a request logger and `parsers`, on 127.0.0.1:0; `url` is the app's.
 */
async function startMounted(
  options: SimulatorOptions = {},
  parsers: RequestHandler[] = USUAL_PARSERS,
): Promise<MountedSim> {
  const t = await startSim(options);
  const requests: string[] = [];
  const app = express();
  app.use((req, res, next) => {
    res.on('close', () => requests.push(`${req.method} ${req.originalUrl} ${res.statusCode}`));
    next();
  });
  app.use(...parsers);
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.use(t.sim.app);
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    ...t,
    ownUrl: t.url,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      await t.close();
      await closeServer(server);
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

const REPORT = 'Write a long report on climate change';

// gRPC has a port of its own, which no express app serves.
for (const { name, factory, unsupported } of ALL_DRIVERS.filter((d) => d.options?.grpcPort === undefined)) {
  conformanceCases(`${name}, mounted in an express app`, factory, unsupported, () => startMounted());
}

// The same app, listened with by the simulator itself.
conformanceCases('REST (fetch), createSimulator({ http: "express" })', restDriver, {}, () =>
  startSim({ http: 'express' }),
);

describe("the simulator mounted at the root of the user's express app", () => {
  let t: MountedSim;
  beforeAll(async () => {
    t = await startMounted();
  });
  afterAll(() => t.close());

  it("leaves the app's own routes and middleware in front of it", async () => {
    expect((await getJson(t, '/healthz')).body).toEqual({ ok: true });
    const { status, body } = await t.drive(postJson(t, '/message:send', v1Send('Hello'), V1_HEADERS));
    expect(status).toBe(200);
    expect(body.message.role).toBe('ROLE_AGENT');
    await flushIo();
    expect(t.requests).toEqual(['GET /healthz 200', 'POST /message:send 200']);
  });

  it('advertises its own address in the agent card', async () => {
    const { body } = await getJson(t, '/.well-known/agent-card.json', V1_HEADERS);
    const urls: string[] = body.supportedInterfaces.map((i: any) => i.url);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.startsWith(t.url)).toBe(true);
  });

  it('streams each event as it happens, through a body express.json() parsed', async () => {
    // postSse sends Content-Type: application/json, which the app's express.json() reads first.
    const stream = await postSse(`${t.url}/message:stream`, v1Send(REPORT), V1_HEADERS);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const first = await stream.next();
    expect(first!.json.task.status.state).toBe('TASK_STATE_SUBMITTED');
    const taskId: string = first!.json.task.id;

    // Nothing more comes until the clock moves; then what happened arrives while the task runs.
    await flushIo();
    expect(stream.drain()).toEqual([]);
    t.clock.advance(5_000);
    const early: SseEvent[] = [];
    while (!early.at(-1)?.json.artifactUpdate) early.push((await stream.next())!);
    expect(early[0]!.json.statusUpdate.status.state).toBe('TASK_STATE_WORKING');
    expect(stream.closed).toBe(false);
    expect((await getJson(t, `/tasks/${taskId}`, V1_HEADERS)).body.status.state).toBe('TASK_STATE_WORKING');

    const rest = await t.drive(stream.rest());
    const ids = [first!, ...early, ...rest].map((e) => Number(e.id));
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(rest.at(-1)!.json.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    await flushIo();
    expect(t.requests).toContain('POST /message:stream 200');
  });

  it('streams a JSON-RPC SendStreamingMessage through the app', async () => {
    const stream = await postSse(
      `${t.url}/`,
      { jsonrpc: '2.0', id: 'mounted-1', method: 'SendStreamingMessage', params: v1Send(REPORT) },
      V1_HEADERS,
    );
    const events = await t.drive(stream.rest());
    expect(events.every((e) => e.json.id === 'mounted-1')).toBe(true);
    expect(events[0]!.json.result.task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(events.at(-1)!.json.result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('serves the control plane, whose JSON bodies express.json() parsed', async () => {
    const before = t.clock.now();
    const { status, body } = await admin(t, 'POST', '/clock/advance', { ms: 1_000 });
    expect(status).toBe(200);
    expect(Date.parse(body.now)).toBe(before + 1_000);
    expect((await admin(t, 'GET', '/requests')).status).toBe(200);
  });

  it('answers an empty JSON-RPC body as it does on its own port: ParseError', async () => {
    const answers = await Promise.all(
      [t.url, t.ownUrl].map((url) =>
        callJson(url, 'POST', '/', { body: '', headers: { ...JSON_HEADERS, ...V1_HEADERS } }),
      ),
    );
    for (const answer of answers) expect(answer.body.error.code).toBe(-32700);
  });
});

describe('a body a parser in front already read', () => {
  /** Sends the weather question over REST and JSON-RPC, in `contentType`, and expects both answered. */
  async function answersBoth(t: TestSim, contentType: string): Promise<void> {
    const headers = { ...V1_HEADERS, 'Content-Type': contentType };
    const rest = await t.drive(postJson(t, '/message:send', v1Send('What is the weather today?'), headers));
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.task.status.state).toBe('TASK_STATE_COMPLETED');
    const jsonRpc = await t.drive(
      rpc(t, 'SendMessage', v1Send('What is the weather today?'), { version: '1.0', headers }),
    );
    expect(jsonRpc.body.result.task.status.state, jsonRpc.text).toBe('TASK_STATE_COMPLETED');
  }

  const PARSERS: [string, RequestHandler, string][] = [
    [
      'express.json() for every JSON type',
      express.json({ type: ['application/json', 'application/*+json'] }),
      'application/a2a+json',
    ],
    [
      'express.text()',
      express.text({ type: ['application/json', 'application/*+json'] }),
      'application/a2a+json',
    ],
    ['express.raw()', express.raw({ type: 'application/json' }), 'application/json'],
  ];
  for (const [title, parser, contentType] of PARSERS) {
    it(`is read from what ${title} left in req.body`, async () => {
      const t = await startMounted({}, [parser]);
      try {
        await answersBoth(t, contentType);
      } finally {
        await t.close();
      }
    });
  }

  it('is held to the size limit (maxBodyBytes) as one read from the stream', async () => {
    const t = await startMounted({ maxBodyBytes: 1024 });
    try {
      const big = v1Send('x'.repeat(4096));
      const answers = await Promise.all(
        [t.url, t.ownUrl].map((url) => postJson(url, '/message:send', big, V1_HEADERS)),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(413);
        expect(answer.body.error.details[0].reason).toBe('PAYLOAD_TOO_LARGE');
      }
    } finally {
      await t.close();
    }
  });

  it('is an InternalError naming req.body when the middleware kept nothing, not a request left hanging', async () => {
    const discard: RequestHandler = (req, _res, next) => {
      req.resume();
      req.once('end', () => next());
    };
    const t = await startMounted({}, [discard]);
    try {
      const { body } = await t.drive(rpc(t, 'SendMessage', v1Send('Hello'), { version: '1.0' }));
      expect(body.error.code).toBe(-32603);
      expect(body.error.message).toMatch(/req\.body/);
    } finally {
      await t.close();
    }
  });
});
