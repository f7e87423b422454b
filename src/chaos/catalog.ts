/**
 * Named chaos profiles: `*.chaos.yaml` files in the scenario directories (the built-ins first come
 * from `scenarios/`), the file name being the profile name. An earlier directory wins, as for
 * scenarios; a broken file is skipped with its problems reported.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { displayPath, parseWithSchema, readSource, type FileIssue } from '../lib/yaml-file.js';
import { ChaosProfileFile, type RawChaosProfile } from './profile.js';

export const CHAOS_FILE = /\.chaos\.(ya?ml|json)$/i;

export function profileNameOf(file: string): string {
  return path.basename(file).replace(CHAOS_FILE, '');
}

export async function loadChaosFile(
  file: string,
): Promise<{ profile?: RawChaosProfile; issues: FileIssue[] }> {
  const source = await readSource(file);
  if ('issue' in source) return { issues: [source.issue] };
  const parsed = parseWithSchema(displayPath(file), source.text, ChaosProfileFile);
  return 'issues' in parsed ? { issues: parsed.issues } : { profile: parsed.value, issues: [] };
}

/** Chaos profile files directly inside `dir`, by name. */
export async function listChaosFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && CHAOS_FILE.test(e.name))
    .map((e) => path.join(dir, e.name))
    .sort();
}

export async function loadChaosDirs(
  dirs: readonly string[],
): Promise<{ profiles: Map<string, RawChaosProfile>; issues: FileIssue[] }> {
  const profiles = new Map<string, RawChaosProfile>();
  const issues: FileIssue[] = [];
  for (const dir of dirs) {
    // The scenario loader already reports a directory it cannot read.
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const files = entries
      .filter((e) => e.isFile() && CHAOS_FILE.test(e.name))
      .map((e) => e.name)
      .sort();
    for (const name of files) {
      if (profiles.has(profileNameOf(name))) continue;
      const result = await loadChaosFile(path.join(dir, name));
      issues.push(...result.issues);
      if (result.profile) profiles.set(profileNameOf(name), result.profile);
    }
  }
  return { profiles, issues };
}
