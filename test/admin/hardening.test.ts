/**
 * The control plane against hostile requests: odd and undecodable paths get the admin API's error
 * body (never a 500), and access is checked before anything else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { rawHttp } from '../helpers/raw-http.js';
import { nonLoopbackAddress } from './helpers.js';

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
