/**
 * The control plane against hostile requests: odd and undecodable paths get the admin API's error
 * body (never a 500), access is checked before anything else, and a web page open in a browser on
 * this machine can neither change the simulator (CSRF) nor read its live feed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { rawHttp } from '../helpers/raw-http.js';
import { FeedRefused, nonLoopbackAddress, restSend, watchFeed } from './helpers.js';

describe('odd paths under /_sim', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim()));
  afterAll(() => t.close());

  it.each(['/_sim//', '/_sim//health', '/_sim//app.js', '/_sim///'])(
    'answers GET %s from loopback with 404: the dashboard lives at /_sim/ only',
    async (target) => {
      const answer = await rawHttp(t.url, 'GET', target);
      expect(answer.status).toBe(404);
      expect(answer.json.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    },
  );

  it.each(['/_sim/tasks/%E0%A4%A', '/_sim/tasks/%ZZ', '/_sim/tasks/%'])(
    'answers GET %s with 400 INVALID_ARGUMENT naming the path',
    async (target) => {
      const answer = await rawHttp(t.url, 'GET', target);
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.json.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      expect(answer.json.error.details[1].fieldViolations[0]).toMatchObject({ field: 'path' });
    },
  );

  it('answers a task id that decodes to nothing stored with 404', async () => {
    const answer = await rawHttp(t.url, 'GET', '/_sim/tasks/%2F..%2F');
    expect(answer.status).toBe(404);
  });
});

describe('odd paths under /_sim are checked for access first', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim({ adminToken: 's3cret' })));
  afterAll(() => t.close());

  it.each(['/_sim//', '/_sim//?token=wrong', '/_sim/tasks/%E0%A4%A'])(
    'answers GET %s without the token with 401 or 403, never a 500',
    async (target) => {
      const answer = await rawHttp(t.url, 'GET', target);
      expect([401, 403]).toContain(answer.status);
      expect(answer.json.error.code).toBe(answer.status);
    },
  );

  it('finds the token in the query of an odd path', async () => {
    expect((await rawHttp(t.url, 'GET', '/_sim//?token=s3cret')).status).toBe(404);
    expect((await rawHttp(t.url, 'GET', '/_sim/tasks/%ZZ?token=s3cret')).status).toBe(400);
  });
});

describe.skipIf(!nonLoopbackAddress())('odd paths under /_sim from another machine', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim({ host: '0.0.0.0' })));
  afterAll(() => t.close());

  it.each(['/_sim//', '/_sim/tasks/%E0%A4%A', '/_sim//feed'])('answers GET %s with 403', async (target) => {
    const answer = await rawHttp(`http://${nonLoopbackAddress()}:${t.sim.port}`, 'GET', target);
    expect(answer.status).toBe(403);
    expect(answer.json.error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
  });
});

describe('a change must be a request no web page can make a browser send', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim({ speed: 0 })));
  afterAll(() => t.close());

  const CHANGES: [string, string, string][] = [
    ['POST', '/_sim/reset', '{}'],
    ['POST', '/_sim/scenarios/reload', ''],
    ['PUT', '/_sim/chaos', '{"chaos":"drop-after-events=1"}'],
    ['POST', '/_sim/clock/advance', '{"ms":1000}'],
    ['DELETE', '/_sim/requests', ''],
  ];

  it.each(CHANGES)(
    'refuses a simple %s %s (text/plain, a form, no type) with 403',
    async (method, target, body) => {
      await restSend(t, '', 'What is the weather today?', `csrf-${method}-${target}`);
      const tasks = t.sim.store.size;
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ]) {
        const answer = await rawHttp(t.url, method, target, { 'Content-Type': type }, body);
        expect(answer.status).toBe(403);
        expect(answer.json.error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
        expect(answer.json.error.details[0].reason).toBe('CROSS_SITE_REQUEST_REFUSED');
        expect(answer.json.error.message).toContain('X-Sim-Admin: 1');
      }
      expect((await rawHttp(t.url, method, target, {}, body)).status).toBe(403);
      expect(t.sim.store.size).toBe(tasks);
      expect((await rawHttp(t.url, 'GET', '/_sim/chaos')).json.active).toBeNull();
    },
  );

  it.each(CHANGES)(
    'accepts %s %s with a JSON Content-Type or an X-Sim-Admin header',
    async (method, target, body) => {
      const json = await rawHttp(t.url, method, target, { 'Content-Type': 'application/json' }, body);
      expect(json.status).toBeLessThan(300);
      const flagged = await rawHttp(t.url, method, target, { 'X-Sim-Admin': '1' }, body);
      expect(flagged.status).toBeLessThan(300);
      await rawHttp(t.url, 'PUT', '/_sim/chaos', { 'X-Sim-Admin': '1' }, '{"chaos":null}');
    },
  );

  it('lets any read through: GET needs nothing of the kind', async () => {
    expect((await rawHttp(t.url, 'GET', '/_sim/health', { 'Content-Type': 'text/plain' })).status).toBe(200);
  });
});

describe('with --admin-token, the token in a header shows a change was meant', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim({ adminToken: 's3cret' })));
  afterAll(() => t.close());

  it.each([
    ['X-Admin-Token', { 'X-Admin-Token': 's3cret' }, 200],
    ['Authorization', { Authorization: 'Bearer s3cret' }, 200],
    ['?token= alone', {}, 403],
  ])('POST /_sim/reset with the token in %s answers %d', async (_how, headers, status) => {
    const target = Object.keys(headers).length ? '/_sim/reset' : '/_sim/reset?token=s3cret';
    expect((await rawHttp(t.url, 'POST', target, headers)).status).toBe(status);
  });

  it.each(['s3cre', 's3cret ', 's3cret\u0000', 'x'.repeat(1000), 'S3CRET'])(
    'refuses the near-miss token %j with 403',
    async (token) => {
      const answer = await rawHttp(t.url, 'GET', `/_sim/health?token=${encodeURIComponent(token)}`);
      expect(answer.status).toBe(403);
    },
  );

  it('lets a page of another origin watch the feed with the token', async () => {
    const watcher = await watchFeed(t, '?token=s3cret', { headers: { Origin: 'http://elsewhere.example' } });
    await watcher.close();
  });
});

describe('the live feed answers pages of this simulator only', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim()));
  afterAll(() => t.close());

  it.each(['http://evil.example', 'null', 'http://127.0.0.1:1', 'not a url'])(
    'refuses a watcher from a page of %s with 403',
    async (origin) => {
      const refused = await watchFeed(t, '', { headers: { Origin: origin } }).catch(
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(FeedRefused);
      expect((refused as FeedRefused).status).toBe(403);
      expect(JSON.parse((refused as FeedRefused).body).error.details[0].reason).toBe(
        'CROSS_SITE_REQUEST_REFUSED',
      );
    },
  );

  it('accepts the dashboard (same origin) and clients that send no Origin', async () => {
    const host = new URL(t.url).host;
    for (const headers of [{ Origin: `http://${host}` }, {}] as Record<string, string>[]) {
      const watcher = await watchFeed(t, '', { headers });
      await watcher.close();
    }
  });
});
