/**
 * The scenario and agent file examples of docs/scenarios.md and docs/agents.md, as written there:
 * each loads without an issue.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseAgent } from '../../src/agents/load.js';
import { formatIssue, parseScenario } from '../../src/scenario/load.js';

const yamlBlocks = (page: string) =>
  [
    ...readFileSync(fileURLToPath(new URL(`../../docs/${page}`, import.meta.url)), 'utf8').matchAll(
      /^```yaml\n([\s\S]*?)^```$/gm,
    ),
  ].map((m) => m[1]!);
const BLOCKS = [...yamlBlocks('scenarios.md'), ...yamlBlocks('agents.md')];
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
  const { issues } = await parseScenario('example', 'docs/scenarios.md', text!);
  expect(issues.map(formatIssue)).toEqual([]);
});

it('loads the agent file example, its scenarios loaded', () => {
  const { issues } = parseAgent('shop', 'docs/agents.md', BLOCKS.find(isAgent)!, {
    scenarioIds: ['order', 'weather'],
  });
  expect(issues.map(formatIssue)).toEqual([]);
});
