/**
 * Spans exported over OTLP/HTTP to a collector of the test's own (a node:http server that reads the
 * JSON the exporter sends): one SERVER span per call with what its exchange record says, the
 * caller's `traceparent` as its parent, an event per stream event and per fault, over HTTP and gRPC;
 * the webhooks a call asks for carry its trace on. The simulator's close exports what is batched.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/log.js';
import { metadataOf, rawGrpcClient } from '../helpers/grpc.js';
import { MAX_SPAN_BYTES } from '../../src/tracing/budget.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { chaosHeader, getJson, postJson, rpcStream, v1Send, V1_HEADERS } from '../helpers/wire.js';
import { startReceiver, untilReceived, type Receiver } from '../push/helpers.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: OtlpAttribute[];
  events: { name: string; attributes: OtlpAttribute[] }[];
  status?: { code?: number };
}

/** `{ key: value }` of OTLP attributes, numbers as numbers. */
const attrs = (list: OtlpAttribute[]) =>
  Object.fromEntries(
    list.map(({ key, value }) => [
      key,
      value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.boolValue),
    ]),
  );

/** A collector: every span of every POST /v1/traces, with the resources they came with. */
async function startCollector() {
  const spans: OtlpSpan[] = [];
  const services: string[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      contentTypes.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const body = JSON.parse(text) as {
        resourceSpans: {
          resource: { attributes: OtlpAttribute[] };
          scopeSpans: { spans: OtlpSpan[] }[];
        }[];
      };
      for (const { resource, scopeSpans } of body.resourceSpans) {
        services.push(String(attrs(resource.attributes)['service.name']));
        for (const scope of scopeSpans) spans.push(...scope.spans);
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    services,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let collector: Awaited<ReturnType<typeof startCollector>>;
let receiver: Receiver;
let t: TestSim;
const lines: string[] = [];
/** What each test did, read once the simulator closed and exported it all. */
const seen: Record<string, unknown> = {};

beforeAll(async () => {
  collector = await startCollector();
  receiver = await startReceiver();
  t = await startSim({
    otelEndpoint: collector.url,
    grpcPort: 0,
    logger: createLogger({ level: 'info', format: 'json', write: (line) => lines.push(line) }),
  });
});
afterAll(async () => {
  await receiver.close();
  await collector.close();
});

describe('a call with a traceparent', () => {
  it('keeps the trace on its journal entry and log line, and its webhook carries it on', async () => {
    const answer = await t.drive(
      postJson(
        t,
        '/message:send',
        v1Send(
          'What is the weather today?',
          {},
          { configuration: { returnImmediately: true, taskPushNotificationConfig: { url: receiver.url } } },
        ),
        { ...V1_HEADERS, traceparent: TRACEPARENT, tracestate: 'vendor=abc' },
      ),
    );
    expect(answer.status).toBe(200);
    const [entry] = t.sim.journal.list({ taskId: answer.body.task.id });
    expect(entry!.trace).toEqual({
      traceId: TRACE_ID,
      parentId: PARENT_ID,
      spanId: expect.stringMatching(/^[0-9a-f]{16}$/),
      flags: '01',
      state: 'vendor=abc',
    });
    const one = await getJson(t, `/_sim/requests/${entry!.n}`);
    expect(one.body.trace).toEqual(entry!.trace);
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.request === entry!.n);
    expect(line).toMatchObject({ traceId: TRACE_ID, spanId: entry!.trace!.spanId });
    const [delivery] = await untilReceived(t, receiver, 1);
    expect(delivery!.headers['traceparent']).toBe(`00-${TRACE_ID}-${entry!.trace!.spanId}-01`);
    expect(delivery!.headers['tracestate']).toBe('vendor=abc');
    seen['send'] = { taskId: answer.body.task.id, spanId: entry!.trace!.spanId };
  });

  it('starts a trace of its own when the traceparent is malformed', async () => {
    const answer = await t.drive(
      postJson(t, '/message:send', v1Send('What is the weather today?'), {
        ...V1_HEADERS,
        traceparent: `${TRACEPARENT}-x`,
      }),
    );
    const [entry] = t.sim.journal.list({ taskId: answer.body.task.id });
    expect(entry!.trace!.traceId).not.toBe(TRACE_ID);
    expect(entry!.trace!.parentId).toBeUndefined();
    seen['malformed'] = entry!.trace;
  });
});

describe('a stream chaos cuts', () => {
  it('is sent its events, then dropped', async () => {
    const stream = await t.drive(
      rpcStream(t, 'SendStreamingMessage', v1Send('What is the weather today?'), {
        headers: { ...V1_HEADERS, ...chaosHeader('drop-after-events=2') },
      }),
    );
    const events = await t.drive(stream.rest());
    expect(events).toHaveLength(2);
    seen['stream'] = (events[0]!.json as { result: { task: { id: string } } }).result.task.id;
  });
});

describe('a gRPC call', () => {
  it('is answered', async () => {
    const client = rawGrpcClient(t.sim.grpcUrl!);
    const answer = await t.drive(
      new Promise<any>((resolve, reject) =>
        client.SendMessage(
          {
            message: {
              messageId: 'grpc-1',
              role: 'ROLE_USER',
              parts: [{ text: 'What is the weather today?' }],
            },
          },
          metadataOf({ traceparent: TRACEPARENT }),
          (error: ServiceError | null, result: unknown) => (error ? reject(error) : resolve(result)),
        ),
      ),
    );
    seen['grpc'] = answer.task.id;
  });
});

describe('the spans waiting for the collector', () => {
  it('are counted in /_sim/health, against their budget', async () => {
    const { memory } = (await getJson(t, '/_sim/health')).body;
    expect(memory.spans).toEqual({ bytes: expect.any(Number), maxBytes: MAX_SPAN_BYTES, dropped: 0 });
    expect(memory.spans.bytes).toBeGreaterThanOrEqual(0);
  });
});

describe('once the simulator closes', () => {
  let spans: OtlpSpan[];
  beforeAll(async () => {
    await t.close();
    spans = collector.spans;
  });
  const spanOf = (taskId: unknown) => spans.find((s) => attrs(s.attributes)['a2a.task.id'] === taskId);

  it('has exported every span as JSON to /v1/traces, for the service a2a-sim', () => {
    expect(collector.contentTypes.length).toBeGreaterThan(0);
    expect(new Set(collector.contentTypes)).toEqual(new Set(['POST /v1/traces application/json']));
    expect(new Set(collector.services)).toEqual(new Set(['a2a-sim']));
  });

  it("has a SERVER span for the send, the traceparent's span its parent, with what the call was", () => {
    const { taskId, spanId } = seen['send'] as { taskId: string; spanId: string };
    const span = spanOf(taskId)!;
    expect(span).toMatchObject({
      name: 'a2a send',
      kind: 2,
      traceId: TRACE_ID,
      parentSpanId: PARENT_ID,
      spanId,
    });
    expect(attrs(span.attributes)).toMatchObject({
      'a2a.binding': 'REST',
      'a2a.version': '1.0',
      'a2a.operation': 'POST /message:send',
      'a2a.kind': 'send',
      'a2a.task.id': taskId,
      'http.response.status_code': 200,
      'a2a.client': expect.stringContaining('127.0.0.1'),
    });
  });

  it('has a span of its own trace for a call whose traceparent was malformed', () => {
    const trace = seen['malformed'] as { traceId: string; spanId: string };
    const span = spans.find((s) => s.spanId === trace.spanId)!;
    expect(span.traceId).toBe(trace.traceId);
    expect(span.parentSpanId ?? '').toBe('');
  });

  it("has an event for each stream event sent and for chaos's drop", () => {
    const span = spanOf(seen['stream'])!;
    expect(span.name).toBe('a2a stream');
    const sent = span.events.filter((e) => e.name === 'a2a.stream.event').map((e) => attrs(e.attributes));
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({ 'a2a.event.kind': 'task', 'a2a.event.seq': 1 });
    const [fault] = span.events.filter((e) => e.name === 'a2a.chaos.fault').map((e) => attrs(e.attributes));
    expect(fault).toMatchObject({ 'a2a.fault.kind': 'drop', 'a2a.fault.seq': 2 });
    expect(attrs(span.attributes)).toMatchObject({ 'a2a.streamed': true, 'a2a.stream.ended': 'cut' });
  });

  it('has a span for a gRPC call, its metadata traceparent its parent', () => {
    const span = spanOf(seen['grpc'])!;
    expect(span).toMatchObject({ name: 'a2a send', traceId: TRACE_ID, parentSpanId: PARENT_ID });
    expect(attrs(span.attributes)['a2a.binding']).toMatch(/gRPC/);
  });
});
