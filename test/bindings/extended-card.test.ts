/** Skills marked `extended` appear on the extended agent card only, in both protocol versions. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimWith, type TestSim } from '../helpers/sim.js';
import { getJson, rpc } from '../helpers/wire.js';

let t: TestSim;
beforeAll(async () => {
  t = await startSimWith({
    'audit.yaml':
      'description: An internal audit.\nskill: { name: Audit, extended: true }\nmatch: [{ keywords: [audit] }]\nsteps: [{ status: completed }]\n',
  });
});
afterAll(() => t.close());

const skillIds = (card: any): string[] => card.skills.map((s: { id: string }) => s.id);

const extendedCard = async (method: string, version: '1.0' | '0.3') =>
  (await rpc(t, method, undefined, { version })).body.result;

it.each(['1.0', '0.3'])('keeps extended skills off the public A2A %s card', async (version) => {
  const card = (await getJson(t, '/.well-known/agent-card.json', { 'A2A-Version': version })).body;
  expect(skillIds(card)).toContain('weather');
  expect(skillIds(card)).not.toContain('audit');
});

it('lists them on the v1.0 extended card, over REST and JSON-RPC', async () => {
  expect(skillIds((await getJson(t, '/extendedAgentCard')).body)).toContain('audit');
  expect(skillIds(await extendedCard('GetExtendedAgentCard', '1.0'))).toContain('audit');
});

it('lists them on the v0.3 authenticated extended card', async () => {
  const card = await extendedCard('agent/getAuthenticatedExtendedCard', '0.3');
  expect(card.protocolVersion).toBe('0.3.0');
  expect(skillIds(card)).toContain('audit');
});
