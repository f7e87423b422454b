/**
 * The well-known agent card over HTTP: which card a request gets (its `A2A-Version`, else
 * `--card-format`), that each format is read by the official SDK of its version, and the caching
 * headers of §8.6.1 with conditional requests.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AgentCard } from '@a2a-js/sdk';
import { parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorOptions } from '../../src/index.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { v1Send } from '../helpers/wire.js';

const CARD = '/.well-known/agent-card.json';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'a2a-sim-card-'));
  await writeFile(
    path.join(dir, 'vault.agent.yaml'),
    [
      'name: Vault',
      'description: Needs a key.',
      'scenarios: [weather]',
      'security:',
      '  apiKey: { header: X-API-Key }',
      '',
    ].join('\n'),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function withSim(options: SimulatorOptions, body: (t: TestSim) => Promise<void>): Promise<void> {
  const t = await startSim({ scenarioDirs: [dir], ...options });
  try {
    await body(t);
  } finally {
    await t.close();
  }
}

/** The fields of a v1.0 AgentCard and its AgentCapabilities (a2a.proto); the schema allows no others. */
const V1_CARD_FIELDS = [
  'name',
  'description',
  'supportedInterfaces',
  'provider',
  'version',
  'documentationUrl',
  'capabilities',
  'securitySchemes',
  'securityRequirements',
  'defaultInputModes',
  'defaultOutputModes',
  'skills',
  'signatures',
  'iconUrl',
];
const V1_CAPABILITY_FIELDS = ['streaming', 'pushNotifications', 'extensions', 'extendedAgentCard'];

/** Only what v1.0 defines, and readable by the v1.0 SDK. */
function expectPureV1(card: Record<string, unknown>): void {
  expect(V1_CARD_FIELDS).toEqual(expect.arrayContaining(Object.keys(card)));
  expect(V1_CAPABILITY_FIELDS).toEqual(expect.arrayContaining(Object.keys(card['capabilities'] as object)));
  expect(AgentCard.fromJSON(card).supportedInterfaces.length).toBeGreaterThan(0);
}

describe('the card of a request that names no A2A-Version', () => {
  it('is the hybrid card by default: the v1.0 card plus the v0.3 fields', () =>
    withSim({}, async (t) => {
      const { body } = await request(t.url).get(CARD);
      expect(body.supportedInterfaces.map((i: { protocolBinding: string }) => i.protocolBinding)).toEqual([
        'JSONRPC',
        'HTTP+JSON',
      ]);
      expect(body).toMatchObject({
        protocolVersion: '0.3.0',
        url: t.url,
        preferredTransport: 'JSONRPC',
        supportsAuthenticatedExtendedCard: true,
        capabilities: { streaming: true, extendedAgentCard: true, stateTransitionHistory: false },
      });
      // Each SDK reads its own version's fields from the one document.
      const v1 = AgentCard.fromJSON(body);
      expect(v1.supportedInterfaces.map((i) => i.protocolBinding)).toEqual(['JSONRPC', 'HTTP+JSON']);
      expect(v1.capabilities?.extendedAgentCard).toBe(true);
      const legacy = parseLegacyAgentCard(body);
      expect(legacy.supportedInterfaces.map((i) => i.protocolBinding)).toContain('JSONRPC');
    }));

  it('carries each security scheme in both shapes, so either SDK reads it', () =>
    withSim({}, async (t) => {
      const { body } = await request(t.url).get(`/agents/vault${CARD}`);
      expect(body.securitySchemes.apiKey).toEqual({
        apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' },
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
      });
      expect(body.securityRequirements).toEqual([{ schemes: { apiKey: { list: [] } } }]);
      expect(body.security).toEqual([{ apiKey: [] }]);
      expect(AgentCard.fromJSON(body).securitySchemes['apiKey']?.scheme?.$case).toBe('apiKeySecurityScheme');
    }));

  it('is the pure v1.0 card with --card-format v1.0: nothing v1.0 does not define', () =>
    withSim({ cardFormat: 'v1.0' }, async (t) => {
      for (const path of [CARD, `/agents/vault${CARD}`]) {
        const { body } = await request(t.url).get(path);
        expectPureV1(body);
      }
    }));

  it('is the v0.3 card with --card-format v0.3', () =>
    withSim({ cardFormat: 'v0.3' }, async (t) => {
      const { body } = await request(t.url).get(CARD);
      expect(body).toMatchObject({ protocolVersion: '0.3.0', preferredTransport: 'JSONRPC' });
      expect(body.capabilities).not.toHaveProperty('extendedAgentCard');
    }));
});

describe('a request that names a version', () => {
  it.each(['hybrid', 'v1.0', 'v0.3'] as const)(
    'gets that version’s pure card whatever the format (%s)',
    (cardFormat) =>
      withSim({ cardFormat }, async (t) => {
        const v1 = await request(t.url).get(CARD).set('A2A-Version', '1.0');
        expectPureV1(v1.body);
        const v03 = await request(t.url).get(CARD).set('A2A-Version', '0.3');
        expect(v03.body).toMatchObject({ protocolVersion: '0.3.0', url: t.url });
        expect(v03.body.capabilities).not.toHaveProperty('extendedAgentCard');
        expect(v1.headers['vary']).toBe('A2A-Version');
      }),
  );
});

describe('caching (§8.6.1)', () => {
  it('sends Cache-Control with max-age, an ETag and Last-Modified', () =>
    withSim({}, async (t) => {
      const res = await request(t.url).get(CARD);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.headers['etag']).toMatch(/^"[\w-]+"$/);
      expect(new Date(res.headers['last-modified']!).getTime()).toBe(Math.floor(t.clock.now() / 1000) * 1000);
    }));

  it('answers If-None-Match with the current tag, or If-Modified-Since not older than the card, with 304', () =>
    withSim({}, async (t) => {
      const first = await request(t.url).get(CARD);
      const etag = first.headers['etag']!;
      const modified = first.headers['last-modified']!;
      for (const headers of [
        { 'If-None-Match': etag },
        { 'If-None-Match': `"other", W/${etag}` },
        { 'If-Modified-Since': modified },
        { 'If-Modified-Since': new Date(t.clock.now() + 3_600_000).toUTCString() },
      ]) {
        const res = await request(t.url).get(CARD).set(headers);
        expect(res.status, JSON.stringify(headers)).toBe(304);
        expect(res.text ?? '').toBe('');
        expect(res.headers['etag']).toBe(etag);
      }
      for (const headers of [
        { 'If-None-Match': '"stale"' },
        // If-None-Match decides when present, even beside a date that would match.
        { 'If-None-Match': '"stale"', 'If-Modified-Since': modified },
        { 'If-Modified-Since': new Date(t.clock.now() - 3_600_000).toUTCString() },
        { 'If-Modified-Since': 'yesterday' },
      ]) {
        const res = await request(t.url).get(CARD).set(headers);
        expect(res.status, JSON.stringify(headers)).toBe(200);
        expect(res.body.name).toBe('A2A Simulator');
      }
    }));

  it('moves Last-Modified when a reload changes the skills on the card', async () => {
    const scenarios = await mkdtemp(path.join(os.tmpdir(), 'a2a-sim-card-skills-'));
    const file = path.join(scenarios, 'joke.yaml');
    await writeFile(file, 'description: Tells a joke.\nsteps:\n  - status: completed\n    message: Ha.\n');
    try {
      await withSim({ scenarioDirs: [scenarios] }, async (t) => {
        const before = await request(t.url).get(CARD);
        t.clock.advance(5_000);
        const unchanged = await request(t.url).get(CARD);
        expect(unchanged.headers['last-modified']).toBe(before.headers['last-modified']);
        await writeFile(
          file,
          'description: Tells a better joke.\nsteps:\n  - status: completed\n    message: Ha!\n',
        );
        await t.sim.reload();
        const after = await request(t.url)
          .get(CARD)
          .set('If-Modified-Since', before.headers['last-modified']!);
        expect(after.status).toBe(200);
        expect(new Date(after.headers['last-modified']!).getTime()).toBe(
          new Date(before.headers['last-modified']!).getTime() + 5_000,
        );
      });
    } finally {
      await rm(scenarios, { recursive: true, force: true });
    }
  });
});

describe('the media type of REST answers: the one the client used', () => {
  const send = v1Send('What is the weather today?', { messageId: 'mt-1' });

  it.each([
    ['application/json', /^application\/json; charset=utf-8$/],
    ['application/a2a+json', /^application\/a2a\+json; charset=utf-8$/],
    ['application/a2a+json; charset=utf-8', /^application\/a2a\+json; charset=utf-8$/],
  ])('answers a body sent as %s in that type, errors included', (type, expected) =>
    withSim({ speed: 0 }, async (t) => {
      const ok = await request(t.url)
        .post('/message:send')
        .set('Content-Type', type)
        .send(JSON.stringify(send));
      expect(ok.status).toBe(200);
      expect(ok.headers['content-type']).toMatch(expected);
      const bad = await request(t.url).post('/message:send').set('Content-Type', type).send('{"message":');
      expect(bad.status).toBe(400);
      expect(bad.headers['content-type']).toMatch(expected);
    }),
  );

  it.each([
    [undefined, /^application\/json;/],
    ['*/*', /^application\/json;/],
    ['application/json', /^application\/json;/],
    ['text/html, application/a2a+json;q=0.9', /^application\/a2a\+json;/],
  ])('answers a GET with Accept %s accordingly', (accept, expected) =>
    withSim({}, async (t) => {
      const req = request(t.url).get('/tasks?pageSize=1');
      const res = await (accept === undefined ? req.unset('Accept') : req.set('Accept', accept));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(expected);
      const missing = request(t.url).get('/tasks/no-such-task');
      const error = await (accept === undefined ? missing.unset('Accept') : missing.set('Accept', accept));
      expect(error.status).toBe(404);
      expect(error.headers['content-type']).toMatch(expected);
    }),
  );
});

describe("the agent's own URL", () => {
  let t: TestSim;
  beforeAll(async () => {
    t = await startSim();
  });
  afterAll(() => t.close());

  it.each(['/', '/agents/explore', '/agents/explore/'])(
    'answers GET %s with the card of the agent there',
    async (at) => {
      const answer = await request(t.url).get(at).expect(200);
      const wellKnown = await request(t.url)
        .get(`${at.replace(/\/$/, '')}/.well-known/agent-card.json`)
        .expect(200);
      expect(answer.body).toEqual(wellKnown.body);
      expect(answer.body.name).toEqual(expect.any(String));
    },
  );
});
