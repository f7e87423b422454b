/**
 * An exam's curriculum: the chaos a client is put through and the rules that chaos exercises, with
 * the thresholds they are judged by. Built-in ones live in scenarios/curricula/; a user's is a
 * `*.curriculum.yaml` file named by its path.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { PREVIEWS, type Preview } from '../domain/previews.js';
import { formatIssue, parseWithSchema, readSource } from '../lib/yaml-file.js';
import { RULE_IDS } from './rules.js';
import type { VerdictThresholds } from './thresholds.js';

export const CURRICULUM_DIR = fileURLToPath(new URL('../../scenarios/curricula', import.meta.url));
const SUFFIX = '.curriculum.yaml';

const CurriculumFile = z.strictObject({
  description: z.string().min(1),
  chaos: z
    .string()
    .min(1)
    .optional()
    .meta({ description: 'Chaos for every call: pairs as in X-Sim-Chaos, or a profile name.' }),
  speed: z
    .number()
    .positive()
    .optional()
    .meta({ description: 'Divides every scenario delay, as --speed does.' }),
  eventTtl: z.number().int().positive().optional().meta({
    description:
      'How long events stay replayable (ms), as --event-ttl: short, so that late resumes are refused.',
  }),
  partOfAll: z.boolean().optional().meta({ description: 'Whether `all` includes it. Default true.' }),
  signCards: z
    .boolean()
    .optional()
    .meta({ description: 'Sign the cards served with a fresh key, as --card-signing-key generate does.' }),
  preview: z
    .array(z.enum(PREVIEWS))
    .optional()
    .meta({ description: 'Draft features the simulator plays, as --preview does.' }),
  rules: z.array(z.enum(RULE_IDS as [string, ...string[]])).min(1),
  thresholds: z
    .strictObject({
      maxPolls: z.number().int().positive().optional(),
      minPolls: z.number().int().min(3).optional(),
      backoffGrowth: z.number().min(1).optional(),
      backoffCapMs: z.number().positive().optional(),
      jitterSpread: z.number().positive().optional(),
      retryAfterSlackMs: z.number().min(0).optional(),
    })
    .optional(),
});

export interface Curriculum {
  name: string;
  description: string;
  chaos?: string;
  speed?: number;
  eventTtl?: number;
  partOfAll: boolean;
  signCards?: boolean;
  preview?: Preview[];
  rules: string[];
  thresholds: Partial<VerdictThresholds>;
}

/** The built-in curricula's names, `all` first (those of them that are part of it, at once). */
export async function builtinCurricula(): Promise<string[]> {
  const names = (await readdir(CURRICULUM_DIR))
    .filter((f) => f.endsWith(SUFFIX))
    .map((f) => f.slice(0, -SUFFIX.length));
  return ['all', ...names.sort()];
}

/** Curricula by name (built-in) or path (a user's file); `all` is every built-in one. */
export async function loadCurricula(names: readonly string[]): Promise<Curriculum[]> {
  const builtins = await builtinCurricula();
  const wanted = names.flatMap((name) =>
    name === 'all' ? builtins.slice(1).map((b) => `${b}?all`) : [name],
  );
  const loaded = await Promise.all(
    [...new Set(wanted)].map((entry) => {
      const name = entry.replace(/\?all$/, '');
      if (builtins.includes(name)) return readCurriculum(name, path.join(CURRICULUM_DIR, `${name}${SUFFIX}`));
      if (name.endsWith('.yaml') || name.endsWith('.yml') || name.includes('/')) {
        return readCurriculum(path.basename(name).replace(/(\.curriculum)?\.ya?ml$/, ''), name);
      }
      throw new Error(
        `No curriculum "${name}": the built-in ones are ${builtins.join(', ')}; or give a *${SUFFIX} file's path.`,
      );
    }),
  );
  // `all` takes those that are part of it; one named outright is taken whatever it says.
  return loaded.filter((curriculum, i) => !wanted[i]!.endsWith('?all') || curriculum.partOfAll);
}

async function readCurriculum(name: string, file: string): Promise<Curriculum> {
  const source = await readSource(file);
  if ('issue' in source) throw new Error(formatIssue(source.issue));
  const parsed = parseWithSchema(file, source.text, CurriculumFile);
  if ('issues' in parsed) throw new Error(parsed.issues.map(formatIssue).join('\n'));
  const { description, chaos, speed, eventTtl, partOfAll, signCards, preview, rules, thresholds } =
    parsed.value;
  return {
    name,
    description,
    ...(chaos !== undefined && { chaos }),
    ...(speed !== undefined && { speed }),
    ...(eventTtl !== undefined && { eventTtl }),
    partOfAll: partOfAll ?? true,
    ...(signCards && { signCards }),
    ...(preview?.length && { preview }),
    rules,
    thresholds: Object.fromEntries(Object.entries(thresholds ?? {}).filter(([, v]) => v !== undefined)),
  };
}

/** Several curricula at once: their chaos together, every rule any of them exercises, the strictest speed. */
export function combine(
  curricula: readonly Curriculum[],
): Omit<Curriculum, 'name' | 'description' | 'partOfAll'> {
  const chaos = curricula.flatMap((c) => (c.chaos ? [c.chaos] : [])).join(', ');
  const speeds = curricula.flatMap((c) => (c.speed ? [c.speed] : []));
  const ttls = curricula.flatMap((c) => (c.eventTtl ? [c.eventTtl] : []));
  const previews = [...new Set(curricula.flatMap((c) => c.preview ?? []))];
  return {
    ...(chaos && { chaos }),
    ...(speeds.length && { speed: Math.min(...speeds) }),
    ...(ttls.length && { eventTtl: Math.min(...ttls) }),
    ...(curricula.some((c) => c.signCards) && { signCards: true }),
    ...(previews.length && { preview: previews }),
    rules: [...new Set(curricula.flatMap((c) => c.rules))],
    thresholds: Object.assign({}, ...curricula.map((c) => c.thresholds)),
  };
}
