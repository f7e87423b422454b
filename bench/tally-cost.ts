/**
 * What the metrics' tally adds to a call, in-process: a journal opening and completing a REST send's
 * exchange, with and without a CallTally listening (medians of 7 runs of 200,000 calls, after 3 runs
 * of warm-up). `npx tsx bench/tally-cost.ts`; `rest-send-c64-no-metrics` is the same over HTTP.
 */
import { CallTally } from '../src/admin/call-tally.js';
import { RequestJournal } from '../src/admin/journal.js';
import { FaultLog } from '../src/chaos/fault-log.js';
import { VirtualClock } from '../src/lib/clock.js';

const CALLS = 200_000;

function nsPerCall(tallied: boolean): number {
  const clock = new VirtualClock();
  const journal = new RequestJournal(1000);
  if (tallied) new CallTally(journal, new FaultLog(), clock);
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) {
    const exchange = journal.open({ atMs: clock.now(), method: 'POST', path: '/message:send', headers: {} });
    exchange.readAs({ binding: 'REST', operation: 'POST /message:send', kind: 'send' });
    exchange.status = 200;
    exchange.streamed = false;
    exchange.durationMs = 3;
    journal.complete(exchange);
  }
  return Number(process.hrtime.bigint() - started) / CALLS;
}

const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;
for (let i = 0; i < 3; i++) (nsPerCall(true), nsPerCall(false));
const tallied: number[] = [];
const bare: number[] = [];
for (let i = 0; i < 7; i++) {
  tallied.push(nsPerCall(true));
  bare.push(nsPerCall(false));
}
const [on, off] = [median(tallied), median(bare)];
process.stdout.write(
  `journal per call: ${off.toFixed(0)} ns; with the tally ${on.toFixed(0)} ns (+${(on - off).toFixed(0)} ns)\n`,
);
