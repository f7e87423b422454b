/** The rule about the v1.1 draft's task generation (§3.2.7), exercised only with `--preview generation`. */
import { factsOf, type Delivered, type DeliveredFacts } from './observation.js';
import { callsByTask, evidence, isStream, type Finding, type Rule } from './rule.js';

export const getAfterGenerationGap: Rule = {
  id: 'get-after-generation-gap',
  level: 'SHOULD',
  source:
    'A2A v1.1 draft §3.2.7 (dev-1.1 branch, unreleased): a client that sees generation N+2 after N missed an event and SHOULD re-fetch the task with GetTask',
  checks:
    'After a stream showed a gap in the task’s generation (the skip-generation quirk), the client reads the task with GetTask.',
  judge({ calls }) {
    const finding: Finding = { exercised: 0, failures: [] };
    for (const taskCalls of callsByTask(calls).values()) {
      taskCalls.forEach((call, i) => {
        const gap = isStream(call) ? gapIn(call.delivered ?? []) : undefined;
        if (!gap) return;
        finding.exercised++;
        if (taskCalls.slice(i + 1).some((c) => c.kind === 'get' && !c.error)) return;
        finding.failures.push(
          evidence(
            call,
            `saw generation ${gap.after.generation} right after ${gap.before.generation} and never read the task with GetTask`,
            gap.after.seq,
          ),
        );
      });
    }
    return finding;
  },
};

/** The first two real deliveries, one after the other, whose generations are more than one apart. */
function gapIn(
  delivered: readonly Delivered[],
): { before: DeliveredFacts; after: DeliveredFacts } | undefined {
  let before: DeliveredFacts | undefined;
  for (const kept of delivered) {
    const d = factsOf(kept);
    if (d.synthetic || d.generation === undefined) continue;
    if (before && d.generation > before.generation! + 1) return { before, after: d };
    before = d;
  }
  return undefined;
}
