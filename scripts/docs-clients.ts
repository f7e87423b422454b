/**
 * Writes docs/clients.md from the client zoo (test/zoo/): `npm run docs:clients` after changing a
 * client or the judge. It runs the zoo first and writes nothing while a verdict differs from what
 * its client expects. Needs the zoo's libraries (`npm ci --prefix test/zoo`) and a build.
 * test/zoo/zoo.test.ts runs the zoo too, and fails when the committed page is not this one.
 */
import { writeFile } from 'node:fs/promises';
import { clientsPage, CLIENTS_DOC, mismatches, runZoo, zooClients, zooInstalled } from '../test/zoo/zoo.js';

if (!zooInstalled()) throw new Error('the zoo is not installed: npm ci --prefix test/zoo');
const clients = await zooClients();
const { runs, curricula, output } = await runZoo();
const wrong = mismatches(clients, runs);
if (wrong.length) {
  process.stderr.write(
    `${output}\nthe zoo's verdicts differ from what its clients expect:\n  ${wrong.join('\n  ')}\n`,
  );
  process.exit(1);
}
await writeFile(CLIENTS_DOC, clientsPage(clients, curricula));
process.stdout.write(`wrote ${CLIENTS_DOC}\n`);
