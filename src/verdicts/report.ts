/**
 * An exam's verdicts as a person reads them (a table per client) and as CI reads them (JUnit XML:
 * one testcase per rule, a failure for `fail`, a skip for `not exercised`, a pass that says what
 * it advises for `advice`), and as a script reads them (`exam --report`, JSON).
 */
import type { ClientVerdicts, RuleVerdict } from './judge.js';
import type { Evidence } from './rule.js';

const MARK: Record<RuleVerdict['outcome'], string> = {
  pass: 'pass',
  fail: 'FAIL',
  advice: 'advice',
  'not exercised': '-',
};

export function verdictTable(clients: readonly ClientVerdicts[], rules: readonly string[]): string {
  if (!clients.length) return 'No client called the simulator: nothing to judge.\n';
  return clients
    .map((client) => {
      const shown = client.verdicts.filter((v) => rules.includes(v.rule));
      const passed = !shown.some((v) => v.level === 'MUST' && v.outcome === 'fail');
      const rows = shown.map((v) => {
        const [first] = v.evidence;
        const more = v.evidence.length > 1 ? ` (and ${v.evidence.length - 1} more)` : '';
        const why = first ? `  ${first.taskId ? `${first.taskId}: ` : ''}${first.detail}${more}` : '';
        return `  ${MARK[v.outcome].padEnd(6)} ${v.level.padEnd(6)} ${v.rule.padEnd(28)}${why}`;
      });
      const head = `client ${client.client} (by ${client.identifiedBy}, ${client.calls} calls): ${passed ? 'passed' : 'FAILED'}`;
      return [head, ...rows].join('\n');
    })
    .join('\n\n')
    .concat('\n');
}

export function junitXml(
  clients: readonly ClientVerdicts[],
  rules: readonly string[],
  command: string,
): string {
  const suites = clients.map((client) => {
    const verdicts = client.verdicts.filter((v) => rules.includes(v.rule));
    const failures = verdicts.filter((v) => v.outcome === 'fail').length;
    const skipped = verdicts.filter((v) => v.outcome === 'not exercised').length;
    const cases = verdicts.map((v) => {
      const open = `    <testcase classname="${xml(`a2a-sim.${client.client}`)}" name="${xml(v.rule)}">`;
      if (v.outcome === 'pass') return `${open}</testcase>`;
      // Advice is no failure: the testcase passes, and says what it advises.
      if (v.outcome === 'advice')
        return `${open}\n      <system-out>${xml(['advice:', ...summarized(v.evidence), v.source].join('\n'))}</system-out>\n    </testcase>`;
      if (v.outcome === 'not exercised') return `${open}<skipped message="not exercised"/></testcase>`;
      const evidence = summarized(v.evidence).join('\n');
      return `${open}\n      <failure message="${xml(`${v.level}: ${v.evidence[0]?.detail ?? v.checks}`)}">${xml(evidence)}</failure>\n    </testcase>`;
    });
    return [
      `  <testsuite name="${xml(`a2a-sim exam: ${client.client}`)}" tests="${verdicts.length}" failures="${failures}" skipped="${skipped}">`,
      `    <properties><property name="command" value="${xml(command)}"/></properties>`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="a2a-sim exam">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** What `exam --report` writes: the verdicts of the curricula's rules, for a script to read. */
export function examReport(
  clients: readonly ClientVerdicts[],
  curricula: readonly string[],
  rules: readonly string[],
  command: string,
) {
  return {
    curricula,
    rules,
    command,
    clients: clients.map((client) => ({
      ...client,
      verdicts: client.verdicts
        .filter((v) => rules.includes(v.rule))
        .map((v) => ({ ...v, evidence: summarized(v.evidence) })),
    })),
  };
}

/** Evidence lines shown per failure, the rest counted. */
const MAX_EVIDENCE_LINES = 10;

/**
 * One line per distinct finding, with how often it was seen and where first: a client that broke
 * a rule fourteen times the same way reads one line, not fourteen.
 */
function summarized(evidence: readonly Evidence[]): string[] {
  const groups = new Map<string, { first: Evidence; count: number }>();
  for (const e of evidence) {
    const group = groups.get(e.detail);
    if (group) group.count++;
    else groups.set(e.detail, { first: e, count: 1 });
  }
  const lines = [...groups.values()].slice(0, MAX_EVIDENCE_LINES).map(({ first, count }) => {
    const where = [first.taskId && `task ${first.taskId}`, first.at && `at ${first.at}`].filter(Boolean);
    const times = count > 1 ? `${count} times, first ` : '';
    return `${first.detail}${where.length ? ` (${times}${where.join(' ')})` : count > 1 ? ` (${count} times)` : ''}`;
  });
  if (groups.size > MAX_EVIDENCE_LINES) lines.push(`… and ${groups.size - MAX_EVIDENCE_LINES} more`);
  return lines;
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
