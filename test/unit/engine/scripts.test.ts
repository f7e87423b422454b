/**
 * Script features beyond a straight list of steps: questions without a message, artifacts that
 * append from their first chunk. Planned from inline YAML, no clock, a fixed seed.
 */
import { describe, expect, it } from 'vitest';
import { artifacts, followUp, inline, states, statusText, turn } from './helpers.js';

describe('input steps', () => {
  it('pause without a status message when the step has none', async () => {
    const scenario = await inline(`
description: bare question
steps:
  - input: {}
  - status: completed
`);
    const first = turn(scenario, 'start');
    expect(states(first)).toEqual(['input-required']);
    expect(first.entries[0]!.event).toEqual({ kind: 'status', state: 'input-required' });
    expect(states(followUp(scenario, first, 'fine'))).toEqual(['completed']);
  });
});

describe('artifacts', () => {
  it('flag the first chunk append too with append: true, and only the last one lastChunk', async () => {
    const scenario = await inline(`
description: appending
steps:
  - artifact:
      id: out
      append: true
      chunks: ["chunk-1 ", "chunk-2"]
  - status: completed
`);
    expect(
      artifacts(turn(scenario, 'go')).map(({ artifact, append, lastChunk }) => ({
        id: artifact.artifactId,
        text: artifact.parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''),
        append,
        lastChunk,
      })),
    ).toEqual([
      { id: 'out', text: 'chunk-1 ', append: true, lastChunk: false },
      { id: 'out', text: 'chunk-2', append: true, lastChunk: true },
    ]);
  });

  it('send a single-part artifact with append: true as one last chunk that appends', async () => {
    const scenario = await inline(`
description: one appending part
steps:
  - artifact: { id: out, parts: [{ text: more }] }
  - artifact: { id: out, append: true, parts: [{ text: " and more" }] }
  - status: completed
    message: "{{input.text}}"
`);
    const timeline = turn(scenario, 'go');
    expect(artifacts(timeline).map(({ append, lastChunk }) => ({ append, lastChunk }))).toEqual([
      { append: false, lastChunk: true },
      { append: true, lastChunk: true },
    ]);
    expect(statusText(timeline.entries.at(-1)!.event)).toBe('go');
  });
});
