/** Where a problem in an authored file is: line and column, and a guess when a key is a slip. */
import { describe, expect, it } from 'vitest';
import { formatIssue, parseWithSchema } from '../../src/lib/yaml-file.js';
import { ScenarioFile } from '../../src/scenario/schema.js';

const problems = (text: string) => {
  const parsed = parseWithSchema('s.yaml', text, ScenarioFile);
  return 'issues' in parsed ? parsed.issues.map(formatIssue) : [];
};

describe('parseWithSchema', () => {
  it('gives the line and column of the key a problem is about', () => {
    const text = 'description: x\nsteps:\n  - status: completed\n    after: soon\n';
    expect(problems(text)).toEqual([expect.stringMatching(/^s\.yaml:4:5 steps\[0\]\.after: /)]);
  });

  it('places a bad indentation on the line that holds it, not the one before', () => {
    const text = 'description: x\nsteps:\n  - status: working\n   after: 1s\n';
    expect(problems(text)).toEqual([expect.stringMatching(/^s\.yaml:4:4: syntax error/)]);
  });

  it('suggests the key a misspelt one was meant to be, and the step a misspelt kind was', () => {
    const text = 'description: x\nsteps:\n  - stauts: working\n  - status: completed\n    aftr: 1s\n';
    expect(problems(text)).toEqual([
      's.yaml:3:5 steps[0]: expected an object with one of the keys "status", "artifact", "wait", "input" ("stauts" looks like "status")',
      's.yaml:5:5 steps[1].aftr: unknown key "aftr" (did you mean "after"?)',
    ]);
  });

  it('repeats a misspelt value and names the allowed one it is a slip for', () => {
    const text = 'description: x\nsteps:\n  - status: input_required\n  - status: compelted\n';
    const allowed =
      '"submitted"|"working"|"input-required"|"auth-required"|"completed"|"failed"|"canceled"|"rejected"';
    expect(problems(text)).toEqual([
      `s.yaml:3:5 steps[0].status: expected one of ${allowed}, got "input_required"; did you mean "input-required"?`,
      `s.yaml:4:5 steps[1].status: expected one of ${allowed}, got "compelted"; did you mean "completed"?`,
    ]);
  });

  it("guesses no value for one like none allowed, and keeps a schema's own message", () => {
    expect(problems('description: x\nsteps:\n  - status: finished\n')).toEqual([
      expect.stringMatching(
        /^s\.yaml:3:5 steps\[0\]\.status: expected one of "submitted".*, got "finished"$/,
      ),
    ]);
    expect(problems('description: x\nerror: { type: InvalidParams }\n')).toEqual([
      's.yaml:2:10 error.type: "InvalidParams" is not an A2A error type; did you mean "InvalidParamsError"?',
    ]);
  });

  it('guesses nothing for a key like no other', () => {
    expect(problems('description: x\ncolour: blue\nsteps:\n  - status: completed\n')).toEqual([
      's.yaml:2:1 colour: unknown key "colour"',
    ]);
  });
});
