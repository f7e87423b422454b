/** The exam's reports: the verdict table a person reads and the JUnit XML CI reads. */
import { describe, expect, it } from 'vitest';
import type { ClientVerdicts, RuleVerdict } from '../../src/verdicts/judge.js';
import { junitXml, verdictTable } from '../../src/verdicts/report.js';

const AT = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();

const failed: RuleVerdict = {
  rule: 'card-revalidation',
  level: 'SHOULD',
  source: 'A2A §8.6.2',
  checks: 'A re-fetched agent card is asked for conditionally.',
  outcome: 'fail',
  exercised: 14,
  evidence: Array.from({ length: 14 }, (_, i) => ({
    at: AT(i),
    detail: 'fetched the card again without If-None-Match or If-Modified-Since',
  })),
};

const client: ClientVerdicts = {
  client: 'phone',
  identifiedBy: 'header',
  calls: 15,
  passed: true,
  verdicts: [failed],
};

describe('junitXml', () => {
  it('writes a failure found fourteen times the same way as one line with its count', () => {
    const xml = junitXml([client], ['card-revalidation'], 'node client.js');
    const body = /<failure message="[^"]*">([^<]*)<\/failure>/.exec(xml)![1]!;
    expect(body.split('\n')).toEqual([
      `fetched the card again without If-None-Match or If-Modified-Since (14 times, first at ${AT(0)})`,
    ]);
    expect(xml).toContain('<failure message="SHOULD: fetched the card again');
  });

  it('keeps distinct findings apart, up to ten lines and a count of the rest', () => {
    const evidence = Array.from({ length: 12 }, (_, i) => ({
      taskId: `t${i}`,
      detail: `polled ${i + 2} times`,
    }));
    const xml = junitXml([{ ...client, verdicts: [{ ...failed, evidence }] }], ['card-revalidation'], 'x');
    const body = /<failure message="[^"]*">([^<]*)<\/failure>/.exec(xml)![1]!.split('\n');
    expect(body).toHaveLength(11);
    expect(body[0]).toBe('polled 2 times (task t0)');
    expect(body.at(-1)).toBe('… and 2 more');
  });
});

describe('advice', () => {
  const advised: RuleVerdict = {
    ...failed,
    rule: 'resume-cursor',
    outcome: 'advice',
    source: 'On the v1.0 bindings: A2A #1986',
    evidence: [
      { taskId: 't1', detail: 'reconnected without a cursor after events up to seq 2 were delivered' },
    ],
  };
  const advisedClient = { ...client, verdicts: [advised] };

  it('passes its JUnit testcase and says what it advises, with the source', () => {
    const xml = junitXml([advisedClient], ['resume-cursor'], 'x');
    expect(xml).toContain('failures="0" skipped="0"');
    expect(xml).not.toContain('<failure');
    expect(xml).toMatch(/<system-out>advice:\nreconnected without a cursor[^<]*A2A #1986<\/system-out>/);
  });

  it('is marked advice in the table', () => {
    expect(verdictTable([advisedClient], ['resume-cursor'])).toMatch(
      /advice +SHOULD resume-cursor +t1: reconnected/,
    );
  });
});

describe('verdictTable', () => {
  it('shows the first finding of a failed rule and how many more there were', () => {
    const table = verdictTable([client], ['card-revalidation']);
    expect(table).toMatch(/FAIL +SHOULD card-revalidation/);
    expect(table).toContain(
      'fetched the card again without If-None-Match or If-Modified-Since (and 13 more)',
    );
  });
});
