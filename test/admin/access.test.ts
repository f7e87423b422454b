/**
 * Who may use the admin API under /_sim: unknown routes answered as such, loopback only by
 * default, or whoever holds --admin-token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { admin, getJson } from '../helpers/wire.js';
import { nonLoopbackAddress } from './helpers.js';

describe('unknown routes', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim()));
  afterAll(() => t.close());

  it.each([
    ['GET', '/nope'],
    ['POST', '/tasks'],
    ['DELETE', '/chaos'],
  ])('%s /_sim%s answers 404 NOT_FOUND naming the route', async (method, path) => {
    const { status, body } = await admin(t, method, path);
    expect(status).toBe(404);
    expect(body.error).toMatchObject({
      status: 'NOT_FOUND',
      message: `Not found: ${method} /_sim${path}.`,
    });
  });

  it('a plain GET of the feed answers 426: it is a WebSocket', async () => {
    const { status, body } = await admin(t, 'GET', '/feed');
    expect(status).toBe(426);
    expect(body.error.message).toContain('WebSocket');
  });
});

describe('who may use the control plane', () => {
  describe('with --admin-token', () => {
    let t: TestSim;
    beforeAll(async () => (t = await startSim({ adminToken: 's3cret' })));
    afterAll(() => t.close());

    it('answers 401 UNAUTHENTICATED without a token, even on loopback', async () => {
      const { status, body } = await admin(t, 'GET', '/health');
      expect(status).toBe(401);
      expect(body.error).toMatchObject({ status: 'UNAUTHENTICATED' });
    });

    it.each([
      ['X-Admin-Token', { 'X-Admin-Token': 'wrong' }, ''],
      ['Authorization: Bearer', { Authorization: 'Bearer wrong' }, ''],
      ['?token=', {}, '?token=wrong'],
    ])('answers 403 PERMISSION_DENIED for a wrong token in %s', async (_how, headers, query) => {
      const { status, body } = await admin(t, 'GET', `/health${query}`, undefined, headers);
      expect(status).toBe(403);
      expect(body.error).toMatchObject({ status: 'PERMISSION_DENIED' });
    });

    it.each([
      ['X-Admin-Token', { 'X-Admin-Token': 's3cret' }, ''],
      ['Authorization: Bearer', { Authorization: 'Bearer s3cret' }, ''],
      ['?token=', {}, '?token=s3cret'],
    ])('answers 200 for the right token in %s', async (_how, headers, query) => {
      const { status, body } = await admin(t, 'GET', `/health${query}`, undefined, headers);
      expect(status).toBe(200);
      expect(body.status).toBe('ok');
    });

    it('guards every route, and leaves the agents alone', async () => {
      expect((await admin(t, 'POST', '/reset')).status).toBe(401);
      expect((await admin(t, 'GET', '/nope')).status).toBe(401);
      expect((await getJson(t, '/.well-known/agent-card.json')).status).toBe(200);
    });
  });

  describe('without a token, bound to 0.0.0.0', () => {
    const address = nonLoopbackAddress();
    let t: TestSim;
    beforeAll(async () => (t = await startSim({ host: '0.0.0.0' })));
    afterAll(() => t.close());

    it('answers a loopback client', async () => {
      expect((await admin(t, 'GET', '/health')).status).toBe(200);
    });

    it.skipIf(!address)(
      `refuses a client on a non-loopback address of this machine with 403 (${address ?? 'skipped: this machine has no non-loopback IPv4 address'})`,
      async () => {
        const base = `http://${address}:${t.sim.port}`;
        const { status, body } = await getJson(base, '/_sim/health');
        expect(status).toBe(403);
        expect(body.error).toMatchObject({
          status: 'PERMISSION_DENIED',
          message: expect.stringContaining('--admin-token'),
        });
        // The agent itself answers anyone.
        expect((await getJson(base, '/.well-known/agent-card.json')).status).toBe(200);
      },
    );

    it.skipIf(!address)('with --admin-token, a non-loopback client with the token is let in', async () => {
      const other = await startSim({ host: '0.0.0.0', adminToken: 'far' });
      try {
        const base = `http://${address}:${other.sim.port}/_sim/health`;
        expect((await getJson(base, '')).status).toBe(401);
        expect((await getJson(base, '?token=far')).status).toBe(200);
      } finally {
        await other.close();
      }
    });
  });
});
