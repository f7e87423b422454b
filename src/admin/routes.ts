/**
 * The admin API under `/_sim` (JSON): see and steer the simulator while it runs. Every route is
 * behind {@link checkAdminAccess}; agent cards never mention any of it.
 */
import { placeOf } from '../domain/scope.js';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { FaultKind, FaultLog } from '../chaos/fault-log.js';
import type { GlobalChaos } from '../chaos/setting.js';
import { toRestStatus } from '../bindings/rest-v1/errors.js';
import { asA2AError } from '../bindings/shared/errors.js';
import { readJsonBody, sendJson } from '../bindings/shared/http.js';
import { A2AError, invalidParams } from '../domain/errors.js';
import { VirtualClock, type Clock } from '../lib/clock.js';
import { readDuration } from '../lib/duration.js';
import type { DeliveryLog, DeliveryOutcome } from '../push/delivery-log.js';
import type { TaskRecord, TaskStore } from '../store/task-store.js';
import { checkAdminAccess, checkNotCrossSite } from './access.js';
import { dashboardFiles } from './dashboard-files.js';
import type { SimEventBus } from './events.js';
import type { JournalQuery, RequestJournal } from './journal.js';

export interface ControlPlane {
  clock: Clock;
  store: TaskStore;
  events: SimEventBus;
  journal: RequestJournal;
  faults: FaultLog;
  deliveries: DeliveryLog;
  chaos: GlobalChaos;
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
  stopRecording?(): Promise<{ files: string[]; conversations: number }>;
  /** With replicas: resolves once this replica has everything the shared store had when asked. */
  sync?(): Promise<void>;
  /** With replicas: tells the others of a reset or a chaos change made here. */
  changed?(change: ControlChange): void;
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

const JSON_TYPE = 'application/json';

export function adminRoutes(plane: ControlPlane): Router {
  const router = express.Router();
  router.use((req: Request, _res: Response, next: NextFunction) => {
    checkAdminAccess(req, plane.adminToken);
    checkNotCrossSite(req);
    // Health answers from this replica alone: it is how a load balancer learns the store is away.
    if (plane.sync && req.path !== '/health') plane.sync().then(() => next(), next);
    else next();
  });
  const ok = (res: Response, body: unknown) => sendJson(res, 200, body, JSON_TYPE);

  router.get('/health', (_req, res) => {
    const health = { status: 'ok', ...plane.health() };
    sendJson(res, health.status === 'ok' ? 200 : 503, health, JSON_TYPE);
  });
  router.get('/scenarios', (_req, res) => ok(res, plane.catalog()));
  router.post('/scenarios/reload', async (_req, res) => ok(res, await plane.reload()));

  router.get('/tasks', (req, res) => {
    const { agent, workspace, scenario, state } = stringQuery(req);
    const limit = Math.min(Number(req.query['limit']) || 200, 1000);
    const tasks = [...plane.store.all()]
      .filter(
        (r) =>
          (scenario === undefined || r.scenarioId === scenario) &&
          (state === undefined || r.status.state === state) &&
          (agent === undefined || placeOf(r.scope).agent === agent) &&
          (workspace === undefined || placeOf(r.scope).workspace === workspace),
      )
      .reverse()
      .slice(0, limit)
      .map(summary);
    ok(res, { tasks });
  });

  router.get('/tasks/:id', (req, res) => {
    const record = plane.store.find(String(req.params['id']));
    if (!record) throw new A2AError('TaskNotFoundError', `Task not found: no task "${req.params['id']}".`);
    ok(res, {
      ...summary(record),
      task: record.task,
      events: record.log.readAfter(0),
      oldestSeq: record.log.oldestSeq,
      latestSeq: record.log.latestSeq,
      pushConfigs: [...record.pushConfigs.values()],
      faults: plane.faults.list({ taskId: record.id }),
      deliveries: plane.deliveries.list({ taskId: record.id }),
    });
  });

  router.post('/reset', async (req, res) => {
    const filter = ((await jsonBody(req, res)) ?? {}) as ResetFilter;
    const removed = resetPlane(plane, filter);
    plane.changed?.({ kind: 'reset', filter });
    ok(res, { removed });
  });

  router.get('/chaos', (_req, res) => ok(res, chaosView(plane)));
  router.put('/chaos', async (req, res) => {
    const body = (await jsonBody(req, res)) as { chaos?: unknown } | undefined;
    const chaos = await setChaos(plane, body?.chaos);
    plane.changed?.({ kind: 'chaos', chaos });
    ok(res, chaosView(plane));
  });

  router.post('/clock/advance', async (req, res) => {
    const { clock } = plane;
    if (!(clock instanceof VirtualClock)) {
      throw new A2AError(
        'UnsupportedOperationError',
        'The simulator runs on real time: only a simulator created with a VirtualClock can be advanced.',
      );
    }
    const ms = ((await jsonBody(req, res)) as { ms?: unknown } | undefined)?.ms;
    const reading = typeof ms === 'number' ? readDuration(ms) : undefined;
    if (!reading || 'error' in reading) {
      const why = reading ? `: ${reading.error}` : '';
      throw invalidParams([
        { field: 'ms', description: `milliseconds to advance, a number of 0 or more${why}` },
      ]);
    }
    clock.advance(reading.ms);
    ok(res, { now: new Date(clock.now()).toISOString() });
  });

  router.get('/verdicts', (req, res) => {
    const client = req.query['client'];
    ok(res, plane.verdicts(typeof client === 'string' ? client : undefined));
  });

  router.post('/record/stop', async (_req, res) => {
    if (!plane.stopRecording) {
      throw new A2AError(
        'UnsupportedOperationError',
        'Nothing is being recorded: start the simulator with `a2a-sim record --target URL` (option `record`).',
      );
    }
    ok(res, await plane.stopRecording());
  });

  router.get('/faults', (req, res) => {
    const { taskId, kind } = stringQuery(req);
    ok(res, {
      faults: plane.faults.list({
        ...(taskId !== undefined && { taskId }),
        ...(kind !== undefined && { kind: kind as FaultKind }),
        ...after(req),
      }),
    });
  });

  router.get('/deliveries', (req, res) => {
    const { taskId, configId, outcome } = stringQuery(req);
    ok(res, {
      deliveries: plane.deliveries.list({
        ...(taskId !== undefined && { taskId }),
        ...(configId !== undefined && { configId }),
        ...(outcome !== undefined && { outcome: outcome as DeliveryOutcome }),
        ...after(req),
      }),
    });
  });

  router.get('/requests', (req, res) => {
    const { binding, method, taskId, workspace, since } = stringQuery(req);
    const query: JournalQuery = {
      ...(binding !== undefined && { binding }),
      ...(method !== undefined && { method }),
      ...(taskId !== undefined && { taskId }),
      ...(workspace !== undefined && { workspace }),
      ...(since !== undefined && { since: /^\d+$/.test(since) ? Number(since) : Date.parse(since) }),
      ...after(req),
    };
    ok(res, { requests: plane.journal.list(query) });
  });
  router.delete('/requests', (_req, res) => {
    plane.journal.clear();
    res.status(204).end();
  });

  // The dashboard: `GET /_sim/` and its files, after the API so its paths never shadow a route.
  router.use(dashboardFiles());

  // The live feed is a WebSocket (feed.ts takes the upgrade); a plain GET is told how to ask.
  router.get('/feed', () => {
    throw new A2AError(
      'UnsupportedOperationError',
      'Upgrade required: /_sim/feed is a WebSocket (ws://…/_sim/feed).',
      { httpStatus: 426 },
    );
  });

  router.use((req: Request, res: Response) => {
    const error = new A2AError('MethodNotFoundError', `Not found: ${req.method} /_sim${req.path}.`);
    sendJson(res, 404, toRestStatus(error).body, JSON_TYPE);
  });
  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const { httpStatus, body } = toRestStatus(asA2AError(error, () => undefined));
    sendJson(res, httpStatus, body, JSON_TYPE);
  });
  return router;
}

/** One line of the task list. */
function summary(record: TaskRecord) {
  return {
    id: record.id,
    contextId: record.contextId,
    state: record.status.state,
    updatedAt: record.status.timestamp,
    scenario: record.scenarioId,
    ...placeOf(record.scope),
    events: record.log.latestSeq,
  };
}

function chaosView(plane: ControlPlane) {
  return { active: plane.chaos.source ?? null, profiles: [...plane.chaos.profiles.keys()] };
}

function stringQuery(req: Request): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(req.query).map(([key, value]) => [key, typeof value === 'string' ? value : undefined]),
  );
}

function after(req: Request): { after?: number } {
  const value = req.query['after'];
  return typeof value === 'string' && /^\d+$/.test(value) ? { after: Number(value) } : {};
}

/** Admin bodies are a few small fields: 64 KiB is plenty, whatever --max-body-bytes allows the agents. */
function jsonBody(req: Request, res: Response): Promise<unknown> {
  return readJsonBody(req, res, { limitBytes: 64 * 1024, by: "the admin API's limit", optional: true });
}
