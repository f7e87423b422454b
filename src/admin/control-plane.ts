/**
 * The control plane as a model: what the `/_sim` API sees and steers, and the changes to the whole
 * simulator (a reset, the global chaos) that a replica applies when another replica made them. No
 * HTTP here: routes.ts serves this over express, and src/replica/ applies it without the router.
 */
import type { FaultLog } from '../chaos/fault-log.js';
import type { GlobalChaos } from '../chaos/setting.js';
import { invalidParams } from '../domain/errors.js';
import { placeOf } from '../domain/scope.js';
import type { Clock } from '../lib/clock.js';
import type { DeliveryLog } from '../push/delivery-log.js';
import type { TaskStore } from '../store/task-store.js';
import type { SimEventBus } from './events.js';
import type { RequestJournal } from './journal.js';
import type { Scrape } from './metrics.js';

export interface ControlPlane {
  clock: Clock;
  store: TaskStore;
  events: SimEventBus;
  journal: RequestJournal;
  faults: FaultLog;
  deliveries: DeliveryLog;
  chaos: GlobalChaos;
  /** The simulator's version (a HAR export's creator). */
  version: string;
  /** `--admin-token`; without it, loopback clients only. */
  adminToken?: string;
  health(): Record<string, unknown>;
  /** The loaded scenarios and agents, their match rules, and what failed to load. */
  catalog(): Record<string, unknown>;
  /** Re-reads the scenario directories; a broken file keeps its previous version. */
  reload(): Promise<{ issues: string[] }>;
  /** Each client's verdicts, rule by rule (`client`: one client's). */
  verdicts(client?: string): Record<string, unknown>;
  clearVerdicts(): void;
  /** Writes what was recorded through the proxy (`record`); absent when not recording. */
  stopRecording?(): Promise<{ files: string[]; conversations: number; leftOut: number }>;
  /** The metrics in the Prometheus text format; absent with `metrics: false`. */
  metrics?(): Promise<Scrape>;
  /** The live feed's watchers and what waits to be sent to them, once the feed is attached. */
  feedMemory?(): { watchers: number; bufferedBytes: number };
  /** With replicas: resolves once this replica has everything the shared store had when asked. */
  sync?(): Promise<void>;
  /** With replicas: tells the others of a reset or a chaos change made here; resolves once shared. */
  changed?(change: ControlChange): Promise<void>;
}

/** What a reset removes: everything, or the tasks of one scenario, agent or workspace. */
export interface ResetFilter {
  scenario?: unknown;
  agent?: unknown;
  workspace?: unknown;
}

/** A change to the whole simulator, made through one replica's control plane. */
export type ControlChange = { kind: 'reset'; filter: ResetFilter } | { kind: 'chaos'; chaos: string | null };

/** Removes the tasks the filter names; with none, the journal, faults, deliveries and verdicts too. */
export function resetPlane(plane: ControlPlane, { scenario, agent, workspace }: ResetFilter): number {
  const removed = plane.store.removeWhere(
    (r) =>
      (scenario === undefined || r.scenarioId === scenario) &&
      (agent === undefined || placeOf(r.scope).agent === agent) &&
      (workspace === undefined || placeOf(r.scope).workspace === workspace),
  );
  if (scenario === undefined && agent === undefined && workspace === undefined) {
    plane.journal.clear();
    plane.faults.clear();
    plane.deliveries.clear();
    plane.clearVerdicts();
  }
  return removed;
}

/**
 * A reset made through this replica: applied here, and told to the others before it is answered, so
 * a call through another replica then finds it; the tasks removed here.
 */
export async function resetAndShare(plane: ControlPlane, filter: ResetFilter): Promise<number> {
  const removed = resetPlane(plane, filter);
  await plane.changed?.({ kind: 'reset', filter });
  return removed;
}

/** A chaos change made through this replica: set here, and told to the others; the chaos now set. */
export async function setChaosAndShare(plane: ControlPlane, value: unknown): Promise<string | null> {
  const chaos = await setChaos(plane, value);
  await plane.changed?.({ kind: 'chaos', chaos });
  return chaos;
}

/** Sets the global chaos (null, "" or "off": none); throws InvalidParams on a mistake. */
export async function setChaos(plane: ControlPlane, value: unknown): Promise<string | null> {
  if (value === null || value === '' || value === 'off') {
    plane.chaos.clear();
    return null;
  }
  if (typeof value !== 'string') {
    throw invalidParams([
      {
        field: 'chaos',
        description: 'a profile name, key=value pairs, a *.chaos.yaml path, or null for none',
      },
    ]);
  }
  try {
    await plane.chaos.set(value);
  } catch (error) {
    throw invalidParams([{ field: 'chaos', description: (error as Error).message }]);
  }
  return value;
}
