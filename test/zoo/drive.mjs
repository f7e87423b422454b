// The zoo's client command for `a2a-sim exam`: drives every client of test/zoo/clients/ (or those
// named as arguments) against A2A_URL at once, each in a process of its own, so that one library's
// work cannot hold up another client's next call and change its timing.
//
//   node test/zoo/drive.mjs [CLIENT_ID ...]
//
// A client's script that throws is part of what the client did (the judge sees its calls): the
// error is printed and the others go on; the command exits 0 unless no client could be found.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const dir = new URL('./clients/', import.meta.url);
const one = fileURLToPath(new URL('./lib/one-client.mjs', import.meta.url));
const wanted = process.argv.slice(2);
const files = (await readdir(dir)).filter((f) => f.endsWith('.mjs')).sort();
const chosen = wanted.length ? files.filter((f) => wanted.includes(f.slice(0, -'.mjs'.length))) : files;
if (chosen.length === 0) {
  process.stderr.write(`no zoo client ${wanted.join(', ')}: the clients are ${files.join(', ')}\n`);
  process.exit(2);
}

await Promise.all(
  chosen.map(
    (file) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [one, fileURLToPath(new URL(file, dir))], { stdio: 'inherit' });
        child.on('exit', resolve);
        child.on('error', resolve);
      }),
  ),
);
