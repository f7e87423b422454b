/**
 * Runs the client zoo in a process of its own and writes what the exams said as JSON to the file
 * named by its argument: `node --import tsx test/zoo/host.ts FILE`. The test runs it apart from its
 * own process, whose heap holds what the test files before it left: a collection of that heap can
 * hold the simulators up for longer than the second some rules judge (Retry-After asks for 1 s).
 */
import { writeFile } from 'node:fs/promises';
import { runZoo } from './zoo.js';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: node --import tsx test/zoo/host.ts FILE');
await writeFile(file, JSON.stringify(await runZoo()));
// The clients' processes are gone; a simulator's timer must not keep this one.
process.exit(0);
