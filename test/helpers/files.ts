/** Files for a test to load: scenarios, agent files and chaos profiles written into a directory. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Writes `files` (file name → text) into `dir`, creating it, and returns `dir`. */
export async function writeFiles(dir: string, files: Record<string, string>): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}
