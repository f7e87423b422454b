/**
 * Signed agent cards (A2A §8.4), checked by an independent JWS implementation (jose): every card
 * served carries a flattened JWS over its canonical form, verifiable with the key the agent
 * publishes at `/.well-known/jwks.json`; a card chaos spoiled is refused. Over HTTP, real server.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, flattenedVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, startSimWith, type TestSim } from '../helpers/sim.js';
import { admin, chaosHeader, getJson, rpc, V1_HEADERS } from '../helpers/wire.js';

/**
 * RFC 8785 for the values a card holds (strings, booleans, integers, lists, objects), written apart
 * from the simulator's own: sorted keys, no whitespace.
 */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Verifies a card's first signature with jose against the agent's JWKS; throws when it does not hold. */
async function verifyCard(card: any, jwks: JSONWebKeySet) {
  const { signatures, ...content } = card;
  if (!Array.isArray(signatures) || signatures.length === 0) throw new Error('the card is not signed');
  const jws = { ...signatures[0], payload: Buffer.from(sortedJson(content)).toString('base64url') };
  return flattenedVerify(jws, createLocalJWKSet(jwks));
}

describe('cards signed with a generated key', () => {
  let t: TestSim;
  let jwks: JSONWebKeySet;
  beforeAll(async () => {
    t = await startSimWith(
      { 'desk.agent.yaml': 'name: Desk\ndescription: A help desk.\nscenarios: [weather]\n' },
      { speed: 0, cardSigningKey: 'generate' },
    );
    jwks = (await getJson(t, '/.well-known/jwks.json')).body;
  });
  afterAll(() => t.close());

  it('publishes the key as a JWKS, and names it by kid and jku in the protected header', async () => {
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    expect(jwks.keys[0]).toEqual(t.sim.cardSigningKey);
    const card = (await getJson(t, '/.well-known/agent-card.json')).body;
    expect(decodeProtectedHeader(card.signatures[0])).toEqual({
      alg: 'ES256',
      typ: 'JOSE',
      kid: jwks.keys[0]!.kid,
      jku: `${t.url}/.well-known/jwks.json`,
    });
  });

  it.each([
    ['the hybrid card', '/.well-known/agent-card.json', {}],
    ['the v1.0 card', '/.well-known/agent-card.json', V1_HEADERS],
    ['the v0.3 card', '/.well-known/agent-card.json', { 'A2A-Version': '0.3' }],
    ['the extended card (REST)', '/extendedAgentCard', {}],
    ["an agent's card", '/agents/desk/.well-known/agent-card.json', {}],
  ])('signs %s, verifiably', async (_what, path, headers) => {
    const card = (await getJson(t, path, headers)).body;
    const { protectedHeader } = await verifyCard(card, jwks);
    expect(protectedHeader!.alg).toBe('ES256');
  });

  it('signs the extended card over JSON-RPC too', async () => {
    const answer = await rpc(t, 'GetExtendedAgentCard', {}, { headers: V1_HEADERS });
    await verifyCard(answer.body.result, jwks);
  });

  it.each(['invalid', 'missing', 'wrong-key'])(
    'card-signature=%s in X-Sim-Chaos: the card is refused, and the fault is logged',
    async (fault) => {
      const card = (await getJson(t, '/.well-known/agent-card.json', chaosHeader(`card-signature=${fault}`)))
        .body;
      await expect(verifyCard(card, jwks)).rejects.toThrow();
      if (fault === 'missing') expect(card).not.toHaveProperty('signatures');
      const faults = (await getJson(t, '/_sim/faults?kind=card')).body.faults;
      expect(faults.at(-1)).toMatchObject({ kind: 'card', detail: { signature: fault } });
      // The next card, without the header, is sound again.
      await verifyCard((await getJson(t, '/.well-known/agent-card.json')).body, jwks);
    },
  );

  it('card-signature set globally (PUT /_sim/chaos) spoils every card while it is in force', async () => {
    await admin(t, 'PUT', '/chaos', { chaos: 'card-signature=invalid' });
    try {
      await expect(
        verifyCard((await getJson(t, '/.well-known/agent-card.json')).body, jwks),
      ).rejects.toThrow();
      await expect(
        verifyCard((await getJson(t, '/agents/desk/.well-known/agent-card.json')).body, jwks),
      ).rejects.toThrow();
    } finally {
      await admin(t, 'PUT', '/chaos', { chaos: null });
    }
    await verifyCard((await getJson(t, '/.well-known/agent-card.json')).body, jwks);
  });
});

describe.each([
  ['EC P-256', 'ES256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey],
  ['Ed25519', 'EdDSA', () => generateKeyPairSync('ed25519').privateKey],
  ['RSA', 'RS256', () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey],
])('a %s key from a PEM file', (_kind, alg, makeKey) => {
  let dir: string;
  let t: TestSim;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'a2a-sim-key-'));
    const file = join(dir, 'card.pem');
    await writeFile(file, makeKey().export({ format: 'pem', type: 'pkcs8' }));
    t = await startSim({ cardSigningKey: file });
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it(`signs with ${alg}`, async () => {
    const jwks = (await getJson(t, '/.well-known/jwks.json')).body;
    const { protectedHeader } = await verifyCard(
      (await getJson(t, '/.well-known/agent-card.json')).body,
      jwks,
    );
    expect(protectedHeader!.alg).toBe(alg);
  });
});

describe('without a signing key', () => {
  it('serves unsigned cards and no JWKS', async () => {
    const t = await startSim();
    try {
      expect((await getJson(t, '/.well-known/agent-card.json')).body).not.toHaveProperty('signatures');
      expect((await getJson(t, '/.well-known/jwks.json')).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('refuses a key it cannot sign with, naming the curves it can', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'a2a-sim-key-'));
    try {
      const file = join(dir, 'p384.pem');
      const key = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
      await writeFile(file, key.export({ format: 'pem', type: 'pkcs8' }));
      await expect(startSim({ cardSigningKey: file })).rejects.toThrow(/EC P-256 \(ES256\)/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
