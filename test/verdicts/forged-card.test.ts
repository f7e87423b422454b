/**
 * The forged-card rule over the wire: cards signed and spoiled by chaos (`card-signature=invalid`),
 * and two small clients that fetch the card, check its signature with jose, and call the agent or
 * not. The one that calls it anyway accepted a forged card.
 */
import { createLocalJWKSet, flattenedVerify, type JSONWebKeySet } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/lib/jcs.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { getJson, postJson, v1Send, V1_HEADERS } from '../helpers/wire.js';

let t: TestSim | undefined;
afterEach(() => t?.close());

const as = (client: string) => ({ ...V1_HEADERS, 'X-Sim-Client': client });

/** A client that fetches the card, checks its signature only if `verifies`, and then asks the weather. */
async function client(sim: TestSim, name: string, verifies: boolean): Promise<'called' | 'refused'> {
  const card = (await getJson(sim, '/.well-known/agent-card.json', as(name))).body;
  if (verifies) {
    const jwks: JSONWebKeySet = (await getJson(sim, '/.well-known/jwks.json')).body;
    const { signatures, ...content } = card;
    const payload = Buffer.from(canonicalJson(content)).toString('base64url');
    try {
      await flattenedVerify({ ...signatures?.[0], payload }, createLocalJWKSet(jwks));
    } catch {
      return 'refused';
    }
  }
  await sim.drive(postJson(sim, '/message:send', v1Send('What is the weather today?'), as(name)));
  return 'called';
}

function verdictOf(sim: TestSim, name: string) {
  const [verdicts] = sim.sim.verdicts(name);
  return verdicts?.verdicts.find((v) => v.rule === 'forged-card');
}

describe('forged-card', () => {
  it('fails a client that calls the agent after a forged card, and passes one that refuses it', async () => {
    t = await startSim({ speed: 0, cardSigningKey: 'generate', chaos: 'card-signature=invalid' });
    expect(await client(t, 'gullible', false)).toBe('called');
    expect(await client(t, 'careful', true)).toBe('refused');

    const gullible = verdictOf(t, 'gullible')!;
    expect(gullible).toMatchObject({ level: 'SHOULD', outcome: 'fail', exercised: 1 });
    expect(gullible.source).toMatch(/§8\.4/);
    expect(gullible.evidence[0]!.detail).toMatch(/accepted a forged card/);
    expect(verdictOf(t, 'careful')).toMatchObject({ outcome: 'pass', exercised: 1, evidence: [] });
  });

  it('is not exercised when the cards are sound, and a verifying client calls as usual', async () => {
    t = await startSim({ speed: 0, cardSigningKey: 'generate' });
    expect(await client(t, 'careful', true)).toBe('called');
    expect(verdictOf(t, 'careful')).toMatchObject({ outcome: 'not exercised', exercised: 0 });
  });
});
