/**
 * `GET /_sim/metrics`: calls over REST and JSON-RPC and a stream cut by chaos, scraped and read as
 * Prometheus reads the text; labels from fixed sets only; the control plane's access rule; and one
 * registry per simulator.
 */
import parsePrometheusTextFormat, { type Family } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushIo, startSim, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import {
  admin,
  chaosHeader,
  getJson,
  postForStream,
  postJson,
  rpc,
  V1_HEADERS,
  v1Send,
} from '../helpers/wire.js';

const WEATHER = 'What is the weather today?';
const REPORT = 'Write a long report on climate change';

async function scrape(t: TestSim, headers: Record<string, string> = {}) {
  const answer = await fetch(`${t.url}/_sim/metrics`, { headers });
  return { status: answer.status, type: answer.headers.get('content-type'), text: await answer.text() };
}

async function families(t: TestSim): Promise<Map<string, Family>> {
  const { status, text } = await scrape(t);
  expect(status).toBe(200);
  return new Map(parsePrometheusTextFormat(text).map((family) => [family.name, family]));
}

/**
 * A histogram's `_count` samples, parsed on their own: the parser folds a histogram's series into
 * one and drops their labels (it reads only unlabelled histograms).
 */
async function histogramCounts(t: TestSim, name: string): Promise<Map<string, Family>> {
  const { text } = await scrape(t);
  const lines = text.split('\n').filter((line) => line.startsWith(`${name}_count{`));
  return new Map(parsePrometheusTextFormat(`${lines.join('\n')}\n`).map((family) => [family.name, family]));
}

/** The value of the sample whose labels are exactly `labels`, as a number (undefined: no sample). */
function valueOf(all: Map<string, Family>, name: string, labels: Record<string, string> = {}) {
  const sample = all.get(name)?.metrics.find((m) => sameLabels(m.labels ?? {}, labels));
  return sample && Number(sample.value ?? sample.count);
}

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

describe('GET /_sim/metrics', () => {
  let t: TestSim;
  let all: Map<string, Family>;
  let taskIds: string[];
  beforeAll(async () => {
    t = await startSim({ speed: 0, keepAlive: 0 });
    const rest = await t.drive(postJson(t, '/message:send', v1Send(WEATHER, { messageId: 'm-rest' })));
    const jsonrpc = await t.drive(
      rpc(t, 'SendMessage', v1Send(WEATHER, { messageId: 'm-rpc' }), { version: '1.0' }),
    );
    expect((await getJson(t, '/tasks/no-such-task')).status).toBe(404);
    await rpc(t, 'tasks/frobnicate', {}, { version: '1.0' });
    expect((await getJson(t, '/agents/nobody/tasks/t1')).status).toBe(404);
    const stream = await postSse(`${t.url}/message:stream`, v1Send(REPORT, { messageId: 'm-stream' }), {
      ...V1_HEADERS,
      ...chaosHeader('drop-after-events=2, drop-mode=fin'),
    });
    expect(await t.drive(stream.rest())).toHaveLength(2);
    await flushIo();
    taskIds = [rest.body.task.id, jsonrpc.body.result.task.id];
    all = await families(t);
  });
  afterAll(() => t.close());

  it('answers the Prometheus text format', async () => {
    const { type, text } = await scrape(t);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toContain('# TYPE a2a_sim_requests_total counter');
  });

  it('counts requests by binding, operation and status', () => {
    const requests = (binding: string, operation: string, status: string) =>
      valueOf(all, 'a2a_sim_requests_total', { binding, operation, status });
    expect(requests('REST', 'send', '200')).toBe(1);
    expect(requests('JSON-RPC 1.0', 'send', '200')).toBe(1);
    expect(requests('REST', 'get', '404')).toBe(1);
    expect(requests('REST', 'stream', '200')).toBe(1);
    // Names a caller chose become `other` or `none`: the registry cannot be made to grow.
    // A method no binding knows is read by none: the same as a path no agent serves.
    expect(requests('none', 'none', '200')).toBe(1);
    expect(requests('none', 'none', '404')).toBe(1);
    const total = all.get('a2a_sim_requests_total')!.metrics.reduce((sum, m) => sum + Number(m.value), 0);
    expect(total).toBe(6);
  });

  it('times the calls, a stream until its headers went out', async () => {
    expect(all.get('a2a_sim_request_duration_seconds')!.type).toBe('HISTOGRAM');
    const counts = await histogramCounts(t, 'a2a_sim_request_duration_seconds');
    expect(
      valueOf(counts, 'a2a_sim_request_duration_seconds_count', { binding: 'REST', operation: 'send' }),
    ).toBe(1);
    expect(
      valueOf(counts, 'a2a_sim_request_duration_seconds_count', { binding: 'REST', operation: 'stream' }),
    ).toBe(1);
  });

  it('counts what streams sent, the faults chaos injected, and no stream left open', () => {
    const stream = { binding: 'REST', operation: 'stream' };
    expect(valueOf(all, 'a2a_sim_stream_events_sent_total', stream)).toBe(2);
    expect(valueOf(all, 'a2a_sim_open_streams', stream)).toBe(0);
    expect(valueOf(all, 'a2a_sim_faults_injected_total', { kind: 'drop' })).toBe(1);
  });

  it('reads the tasks by state, the memory budgets and the verdicts on scrape', () => {
    expect(valueOf(all, 'a2a_sim_tasks', { state: 'completed' })).toBe(3);
    expect(valueOf(all, 'a2a_sim_tasks', { state: 'failed' })).toBe(0);
    expect(valueOf(all, 'a2a_sim_memory_bytes', { record: 'store' })).toBeGreaterThan(0);
    expect(valueOf(all, 'a2a_sim_memory_max_bytes', { record: 'journal' })).toBe(32 * 1024 * 1024);
    // The feed's history holds the requests made so far; the fault log the one drop.
    expect(valueOf(all, 'a2a_sim_memory_bytes', { record: 'events' })).toBeGreaterThan(0);
    expect(valueOf(all, 'a2a_sim_memory_bytes', { record: 'faults' })).toBeGreaterThan(0);
    expect(valueOf(all, 'a2a_sim_memory_max_bytes', { record: 'deliveries' })).toBe(8 * 1024 * 1024);
    const verdicts = all.get('a2a_sim_verdicts')!.metrics;
    expect(verdicts.length).toBeGreaterThan(0);
    expect(
      verdicts.every((m) => ['pass', 'fail', 'advice', 'not exercised'].includes(m.labels!['outcome']!)),
    ).toBe(true);
    // Without a shared store, no replica to speak of.
    expect(all.has('a2a_sim_replica_up')).toBe(false);
  });

  it('never labels by a task id, a client or a path', async () => {
    const { text } = await scrape(t);
    for (const id of taskIds) expect(text).not.toContain(id);
    expect(text).not.toContain('frobnicate');
    expect(text).not.toContain('nobody');
  });

  it('is not itself counted, and a reset leaves the counters alone (they only go up)', async () => {
    await admin(t, 'POST', '/reset');
    const again = await families(t);
    expect(
      valueOf(again, 'a2a_sim_requests_total', { binding: 'REST', operation: 'send', status: '200' }),
    ).toBe(1);
    expect(valueOf(again, 'a2a_sim_tasks', { state: 'completed' })).toBe(0);
  });
});

it('counts a stream open while it is, and as closed once the client goes', async () => {
  const t = await startSim({ keepAlive: 0 });
  try {
    const client = new AbortController();
    const body = v1Send(REPORT, { messageId: 'm-open' });
    const response = await postForStream(t, '/message:stream', body, V1_HEADERS, client.signal);
    await t.drive(response.body!.getReader().read());
    const streaming = { binding: 'REST', operation: 'stream' };
    const open = await families(t);
    expect(valueOf(open, 'a2a_sim_open_streams', streaming)).toBe(1);
    expect(valueOf(open, 'a2a_sim_requests_total', { ...streaming, status: '200' })).toBeUndefined();
    expect(
      valueOf(
        await histogramCounts(t, 'a2a_sim_request_duration_seconds'),
        'a2a_sim_request_duration_seconds_count',
        streaming,
      ),
    ).toBe(1);

    client.abort();
    await flushIo();
    const closed = await families(t);
    expect(valueOf(closed, 'a2a_sim_open_streams', streaming)).toBe(0);
    expect(valueOf(closed, 'a2a_sim_requests_total', { ...streaming, status: '200' })).toBe(1);
    expect(valueOf(closed, 'a2a_sim_stream_events_sent_total', streaming)).toBeGreaterThanOrEqual(1);
  } finally {
    await t.close();
  }
});

describe('who may scrape', () => {
  it('follows the control plane: with --admin-token, only a scraper that presents it', async () => {
    const t = await startSim({ adminToken: 's3cret' });
    try {
      const refused = await scrape(t);
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.text).error).toMatchObject({ status: 'UNAUTHENTICATED' });
      expect((await scrape(t, { Authorization: 'Bearer wrong' })).status).toBe(403);
      expect((await scrape(t, { Authorization: 'Bearer s3cret' })).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('with metrics off, answers an error in the admin API shape', async () => {
    const t = await startSim({ metrics: false });
    try {
      const { status, body } = await admin(t, 'GET', '/metrics');
      expect(status).toBe(400);
      expect(body.error.message).toContain('--no-metrics');
    } finally {
      await t.close();
    }
  });
});

it('two simulators in one process count apart', async () => {
  const [a, b] = await Promise.all([startSim({ speed: 0 }), startSim({ speed: 0 })]);
  try {
    await a.drive(postJson(a, '/message:send', v1Send(WEATHER)));
    await a.drive(postJson(a, '/message:send', v1Send(WEATHER)));
    await b.drive(postJson(b, '/message:send', v1Send(WEATHER)));
    const sent = { binding: 'REST', operation: 'send', status: '200' };
    expect(valueOf(await families(a), 'a2a_sim_requests_total', sent)).toBe(2);
    expect(valueOf(await families(b), 'a2a_sim_requests_total', sent)).toBe(1);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
