/** The README's scenario and agent file examples, as written there: each loads without an issue. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseAgent } from '../../src/agents/load.js';
import { formatIssue, parseScenario } from '../../src/scenario/load.js';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
const BLOCKS = [...README.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
const isAgent = (text: string) => 'scenarios' in (parse(text) as object);

it('has scenario and agent examples to check', () => {
  expect(BLOCKS.filter((b) => !isAgent(b)).length).toBeGreaterThanOrEqual(4);
  expect(BLOCKS.filter(isAgent)).toHaveLength(1);
});

it.each(
  BLOCKS.filter((b) => !isAgent(b)).map((text) => [
    text.split('\n').find((l) => l.startsWith('description')),
    text,
  ]),
)('loads the scenario example with %s', async (_, text) => {
  const { issues } = await parseScenario('example', 'README.md', text!);
  expect(issues.map(formatIssue)).toEqual([]);
});

it('loads the agent file example, its scenarios loaded', () => {
  const { issues } = parseAgent('shop', 'README.md', BLOCKS.find(isAgent)!, {
    scenarioIds: ['order', 'weather'],
  });
  expect(issues.map(formatIssue)).toEqual([]);
});
