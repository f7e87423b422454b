/**
 * Loading agent definitions: every problem is reported like a scenario's, with file, line and
 * path, never thrown; a broken file is skipped and the others still load.
 */
import { writeFiles } from '../helpers/files.js';
import { atLine } from '../helpers/issues.js';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  agentIdOf,
  listAgentFiles,
  loadAgentDirs,
  loadAgentFile,
  parseAgent,
  type AgentDefinition,
} from '../../src/agents/load.js';
import { BUILTIN_SCENARIO_DIR, loadScenarioDirs } from '../../src/scenario/load.js';

const FILE = 'agents/shop.agent.yaml';
const SCENARIOS = ['weather', 'flight-booking', 'fallback'];

const yaml = (...lines: string[]) => lines.join('\n') + '\n';
const lineOf = (text: string, needle: string) => {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  expect(index, `"${needle}" is in the text`).toBeGreaterThanOrEqual(0);
  return index + 1;
};
const valid = (...extra: string[]) =>
  yaml('name: Shop', 'description: Sells things', 'scenarios: [weather]', ...extra);

/** The issues of an agent text that must not load, formatted as the CLI prints them. */
function problems(text: string, agents: AgentDefinition[] = []): string[] {
  const result = parseAgent('shop', FILE, text, { scenarioIds: SCENARIOS, agents });
  expect(result.agent).toBeUndefined();
  return result.issues.map(atLine);
}

describe('parseAgent', () => {
  it('loads a minimal agent with its defaults: code = id, every workspace, no skills override', () => {
    const { agent, issues } = parseAgent('shop', FILE, valid(), { scenarioIds: SCENARIOS });
    expect(issues).toEqual([]);
    expect(agent).toEqual<AgentDefinition>({
      id: 'shop',
      code: 'shop',
      file: FILE,
      name: 'Shop',
      description: 'Sells things',
      scenarioIds: ['weather'],
      workspaces: ['*'],
    });
  });

  it('expands "*" to every loaded scenario, in load order', () => {
    const text = yaml('name: All', 'description: Plays everything', "scenarios: '*'");
    const { agent } = parseAgent('all', FILE, text, { scenarioIds: SCENARIOS });
    expect(agent!.scenarioIds).toEqual(SCENARIOS);
  });

  it('keeps code, version, skills, security and workspaces as declared', () => {
    const text = valid(
      'code: shop-v2',
      'version: 2.0.0',
      'skills:',
      '  - { id: buy, name: Buy, description: Buys things }',
      'security:',
      '  apiKey: { header: X-API-Key }',
      '  http: { scheme: bearer, bearerFormat: JWT }',
      'workspaces: [ws-1, ws-2]',
    );
    const { agent, issues } = parseAgent('shop', FILE, text, { scenarioIds: SCENARIOS });
    expect(issues).toEqual([]);
    expect(agent).toMatchObject({
      code: 'shop-v2',
      version: '2.0.0',
      skills: [{ id: 'buy', name: 'Buy', description: 'Buys things', tags: [], extended: false }],
      security: { apiKey: { header: 'X-API-Key' }, http: { scheme: 'bearer', bearerFormat: 'JWT' } },
      workspaces: ['ws-1', 'ws-2'],
    });
  });

  it('keeps the card extensions and default modes as declared', () => {
    const text = valid(
      'capabilities:',
      '  extensions:',
      '    - { uri: "urn:x:required", required: true }',
      '    - { uri: "https://example.com/ext/geo/v1", description: Where, params: { precision: 3 } }',
      'defaultInputModes: [text/plain]',
      'defaultOutputModes: [text/plain, application/json]',
    );
    const { agent, issues } = parseAgent('shop', FILE, text, { scenarioIds: SCENARIOS });
    expect(issues).toEqual([]);
    expect(agent).toMatchObject({
      extensions: [
        { uri: 'urn:x:required', required: true },
        { uri: 'https://example.com/ext/geo/v1', description: 'Where', params: { precision: 3 } },
      ],
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain', 'application/json'],
    });
  });

  it('reports an extension declared twice, and modes that are not a list of media types', () => {
    const text = valid(
      'capabilities:',
      '  extensions: [{ uri: "urn:x" }, { uri: "urn:x" }]',
      'defaultInputModes: text/plain',
      'defaultOutputModes: []',
    );
    expect(problems(text)).toEqual([
      `${FILE}:${lineOf(text, 'extensions')} capabilities.extensions: each extension uri may appear once`,
      `${FILE}:${lineOf(text, 'defaultInputModes')} defaultInputModes: expected a list of media types such as ["text/plain"]`,
      `${FILE}:${lineOf(text, 'defaultOutputModes')} defaultOutputModes: expected a list of media types such as ["text/plain"]`,
    ]);
  });

  it('reports a bad field with its line and path', () => {
    const text = valid('security:', '  apiKey:', '    header: X API Key', 'workspaces: ws-1');
    expect(problems(text)).toEqual([
      `${FILE}:${lineOf(text, 'X API Key')} security.apiKey.header: expected an HTTP header name`,
      `${FILE}:${lineOf(text, 'workspaces')} workspaces: expected array, received string`,
    ]);
  });

  it('reports unknown keys and a missing required field', () => {
    const text = yaml('name: Shop', 'scenarios: [weather]', 'skils: []');
    expect(problems(text)).toEqual([
      `${FILE}:1 description: expected string, received undefined`,
      `${FILE}:${lineOf(text, 'skils')} skils: unknown key "skils" (did you mean "skills"?)`,
    ]);
  });

  it('explains what "scenarios" takes when it is neither a list nor "*"', () => {
    const text = yaml('name: Shop', 'description: x', 'scenarios: weather');
    expect(problems(text)).toEqual([
      `${FILE}:3 scenarios: expected a list of scenario ids, or "*" for every loaded scenario`,
    ]);
  });

  it('reports each unknown scenario id on its own line, listing the loaded ones', () => {
    const text = yaml('name: Shop', 'description: x', 'scenarios:', '  - weather', '  - wether', '  - nope');
    expect(problems(text)).toEqual([
      `${FILE}:${lineOf(text, 'wether')} scenarios[1]: no scenario "wether" is loaded; loaded: weather, flight-booking, fallback`,
      `${FILE}:${lineOf(text, 'nope')} scenarios[2]: no scenario "nope" is loaded; loaded: weather, flight-booking, fallback`,
    ]);
  });

  it('reports a code another agent already uses, as its code or as its id', () => {
    const explore = parseAgent('explore', 'explore.agent.yaml', valid('code: explorer'), {
      scenarioIds: SCENARIOS,
    }).agent!;
    const byCode = valid('code: explorer');
    expect(problems(byCode, [explore])).toEqual([
      `${FILE}:${lineOf(byCode, 'code:')} code: "explorer" already names agent "explore" (explore.agent.yaml)`,
    ]);
    const byId = valid('code: explore');
    expect(problems(byId, [explore])).toEqual([
      `${FILE}:${lineOf(byId, 'code:')} code: "explore" already names agent "explore" (explore.agent.yaml)`,
    ]);
  });

  it('reports an id that is already another agent’s code', () => {
    const other = parseAgent('other', 'other.agent.yaml', valid('code: shop'), {
      scenarioIds: SCENARIOS,
    }).agent!;
    expect(problems(valid('code: shop-x'), [other])).toEqual([
      `${FILE}:1: the agent id "shop" is already the code of agent "other" (other.agent.yaml)`,
    ]);
  });
});

describe('agent files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'a2a-sim-agents-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names an agent after its file, without ".agent.yaml" or ".agent.json"', () => {
    expect(agentIdOf('/x/explore.agent.yaml')).toBe('explore');
    expect(agentIdOf('/x/shop.v2.agent.json')).toBe('shop.v2');
  });

  it('lists only agent files, by name', async () => {
    await writeFiles(dir, {
      'b.agent.json': '{}',
      'a.agent.yaml': '',
      'weather.yaml': '',
      'agent.schema.json': '{}',
    });
    expect((await listAgentFiles(dir)).map((f) => path.basename(f))).toEqual([
      'a.agent.yaml',
      'b.agent.json',
    ]);
  });

  it('refuses the reserved id "a2a": /agents/a2a is the gateway endpoint', async () => {
    await writeFiles(dir, { 'a2a.agent.yaml': valid() });
    const file = path.join(dir, 'a2a.agent.yaml');
    const { agent, issues } = await loadAgentFile(file, { scenarioIds: SCENARIOS });
    expect(agent).toBeUndefined();
    expect(issues.map(atLine)).toEqual([
      `${file}: "a2a" is reserved (/agents/a2a is the gateway endpoint): rename the file`,
    ]);
  });

  it('reports a file name that is not a valid agent id', async () => {
    await writeFiles(dir, { '-draft.agent.yaml': valid() });
    const { issues } = await loadAgentFile(path.join(dir, '-draft.agent.yaml'), { scenarioIds: SCENARIOS });
    expect(issues).toEqual([
      expect.objectContaining({ message: expect.stringContaining('not a valid agent id') }),
    ]);
  });

  it('reports a bad field in a JSON file with its line', async () => {
    const json = JSON.stringify(
      { name: 'Shop', description: 'x', scenarios: ['weather'], version: 2 },
      null,
      2,
    );
    const file = path.join(dir, 'shop.agent.json');
    await writeFiles(dir, { 'shop.agent.json': json });
    const { issues } = await loadAgentFile(file, { scenarioIds: SCENARIOS });
    expect(issues.map(atLine)).toEqual([
      `${file}:${lineOf(json, '"version"')} version: expected string, received number`,
    ]);
  });

  it('skips a broken file and a duplicate code, and still loads the others', async () => {
    const duplicate = valid('code: a');
    await writeFiles(dir, {
      'a.agent.yaml': valid(),
      'b.agent.yaml': yaml('name: B', 'description: x', 'scenarios: [nope]'),
      'c.agent.yaml': duplicate,
      'd.agent.yaml': valid('code: dee'),
    });
    const { agents, issues } = await loadAgentDirs([dir], SCENARIOS);
    expect(agents.map((a) => [a.id, a.code])).toEqual([
      ['a', 'a'],
      ['d', 'dee'],
    ]);
    expect(issues.map(atLine)).toEqual([
      `${path.join(dir, 'b.agent.yaml')}:3 scenarios[0]: no scenario "nope" is loaded; loaded: weather, flight-booking, fallback`,
      `${path.join(dir, 'c.agent.yaml')}:${lineOf(duplicate, 'code:')} code: "a" already names agent "a" (${path.join(dir, 'a.agent.yaml')})`,
    ]);
  });

  it('keeps the agent from the earlier directory when two share an id, as scenarios do', async () => {
    const user = await writeFiles(path.join(dir, 'user'), {
      'explore.agent.yaml': yaml('name: Mine', 'description: x', 'scenarios: [weather]'),
    });
    const builtin = await writeFiles(path.join(dir, 'builtin'), {
      'explore.agent.yaml': yaml('name: Built-in', 'description: x', "scenarios: '*'"),
    });
    const { agents, issues } = await loadAgentDirs([user, builtin], SCENARIOS);
    expect(issues).toEqual([]);
    expect(agents.map((a) => a.name)).toEqual(['Mine']);
  });

  it('passes over a directory it cannot read (the scenario loader reports it)', async () => {
    const { agents, issues } = await loadAgentDirs([path.join(dir, 'missing')], SCENARIOS);
    expect(agents).toEqual([]);
    expect(issues).toEqual([]);
  });
});

describe('built-in agents', () => {
  it('"explore" loads with zero issues and plays every built-in scenario', async () => {
    const { scenarios } = await loadScenarioDirs([BUILTIN_SCENARIO_DIR]);
    const ids = scenarios.map((s) => s.id);
    const { agents, issues } = await loadAgentDirs([BUILTIN_SCENARIO_DIR], ids);
    expect(issues.map(atLine)).toEqual([]);
    expect(agents).toEqual([
      expect.objectContaining({ id: 'explore', code: 'explore', scenarioIds: ids, workspaces: ['*'] }),
    ]);
  });
});
