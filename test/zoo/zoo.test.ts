/**
 * The client zoo (test/zoo/README.md): A2A client libraries nobody here wrote, and small clients
 * written as a new user would, each examined under every built-in curriculum. Each verdict must be
 * the one its client expects from what the library's source does; every rule must be exercised by
 * some client; docs/clients.md must be the page those verdicts make. The libraries install apart
 * (`npm ci --prefix test/zoo`, which `.ci/run` does): without them, skipped with the reason, unless
 * `.ci/run` requires them.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src/verdicts/rules.js';
import {
  clientsPage,
  CLIENTS_DOC,
  CURRICULA,
  mismatches,
  runZooApart,
  zooClients,
  zooInstalled,
  type CurriculumName,
  type Observed,
  type ZooClient,
} from './zoo.js';

const REQUIRED = process.env['REQUIRE_CLIENT_ZOO'] === '1';
const skipped = zooInstalled() || REQUIRED ? '' : ' (skipped: run npm ci --prefix test/zoo)';

describe.skipIf(!zooInstalled() && !REQUIRED)(`the client zoo${skipped}`, () => {
  let clients: ZooClient[];
  let runs: Record<CurriculumName, Observed>;
  let curricula: Record<CurriculumName, readonly string[]>;
  let output: string;

  beforeAll(async () => {
    clients = await zooClients();
    ({ runs, curricula, output } = await runZooApart());
  }, 200_000);

  it("gives every client the verdicts its library's source predicts, under every curriculum", () => {
    const wrong = mismatches(clients, runs);
    // The clients' own output (what each library threw) follows what differs, to read why.
    expect(wrong, `${wrong.join('\n')}\n\nthe clients said:\n${output.slice(-20_000)}`).toEqual([]);
  });

  // forged-card and get-after-generation-gap have curricula of their own, outside `all`, and
  // fixtures of their own (test/verdicts/forged-card.test.ts, test/verdicts/generation.test.ts):
  // every other rule must be met by a client here.
  it('exercises every rule of its curricula with some client', () => {
    const exercised = (rule: string) =>
      CURRICULA.some((c) =>
        Object.values(runs[c]).some((v) => (v[rule]?.outcome ?? 'not exercised') !== 'not exercised'),
      );
    const rules = new Set(CURRICULA.flatMap((c) => curricula[c]));
    expect(RULES.map((r) => r.id).filter((rule) => rules.has(rule) && !exercised(rule))).toEqual([]);
    expect(rules.size).toBeGreaterThanOrEqual(RULES.length - 2);
  });

  it('holds the small clients the judge once misread, beside the libraries', () => {
    const ids = clients.map((c) => c.id);
    for (const id of ['seeds-client', 'abandoning-client', 'streaming-multi-turn', 'refused-cursor'])
      expect(ids).toContain(id);
    expect(new Set(clients.filter((c) => c.library !== 'none').map((c) => c.library)).size).toBeGreaterThan(
      1,
    );
  });

  it('is what docs/clients.md says (npm run docs:clients writes it)', () => {
    expect(readFileSync(CLIENTS_DOC, 'utf8')).toBe(clientsPage(clients, curricula));
  });
});
