/**
 * The admin API under `/_sim` (JSON): see and steer the simulator while it runs. Every route is
 * behind {@link checkAdminAccess}; agent cards never mention any of it. The model it serves (the
 * plane, a reset, the global chaos) is control-plane.ts.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { FaultKind } from '../chaos/fault-log.js';
import { toRestStatus } from '../bindings/rest-v1/errors.js';
import { asA2AError } from '../bindings/shared/errors.js';
import { readJsonBody, sendJson } from '../bindings/shared/http.js';
import { checkCard } from '../agents/card-check.js';
import { A2AError, invalidParams } from '../domain/errors.js';
import { isRecord } from '../lib/objects.js';
import { placeOf } from '../domain/scope.js';
import { VirtualClock } from '../lib/clock.js';
import { readDuration } from '../lib/duration.js';
import type { DeliveryOutcome } from '../push/delivery-log.js';
import type { TaskRecord } from '../store/task-store.js';
import { checkAdminAccess, checkNotCrossSite } from './access.js';
import { dashboardFiles } from './dashboard-files.js';
import { sendHar } from './har-export.js';
import { resetAndShare, setChaosAndShare, type ControlPlane, type ResetFilter } from './control-plane.js';
import type { JournalQuery } from './journal.js';

const JSON_TYPE = 'application/json';
/** A card to check may be larger than the admin API's other bodies: a card lists every skill. */
const CARD_CHECK_BYTES = 1024 * 1024;

export function adminRoutes(plane: ControlPlane): Router {
  const router = express.Router();
  router.use((req: Request, _res: Response, next: NextFunction) => {
    checkAdminAccess(req, plane.adminToken);
    checkNotCrossSite(req);
    // Health and metrics answer from this replica alone: they are how a load balancer, or
    // Prometheus, learns the store is away.
    if (plane.sync && req.path !== '/health' && req.path !== '/metrics')
      plane.sync().then(() => next(), next);
    else next();
  });
  const ok = (res: Response, body: unknown) => sendJson(res, 200, body, JSON_TYPE);

  router.get('/health', (_req, res) => {
    const health = { status: 'ok', ...plane.health() };
    sendJson(res, health.status === 'ok' ? 200 : 503, health, JSON_TYPE);
  });
  router.get('/metrics', async (_req, res) => {
    if (!plane.metrics) {
      throw new A2AError(
        'UnsupportedOperationError',
        'Metrics are off: the simulator was started with --no-metrics (option `metrics: false`).',
      );
    }
    const { contentType, text } = await plane.metrics();
    res.setHeader('Content-Type', contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(text);
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
    ok(res, { removed: await resetAndShare(plane, filter) });
  });

  router.get('/chaos', (_req, res) => ok(res, chaosView(plane)));
  router.put('/chaos', async (req, res) => {
    const body = (await jsonBody(req, res)) as { chaos?: unknown } | undefined;
    await setChaosAndShare(plane, body?.chaos);
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
    // Without the answers: a list is polled (the dashboard's, every few seconds), and each answer's
    // copy may be 16 KiB; one entry in full is `GET /requests/{n}`.
    const requests = plane.journal.list(journalQuery(req));
    ok(res, { requests: requests.map(({ answer: _answer, ...entry }) => entry) });
  });
  router.get('/requests.har', async (req, res) => {
    const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    await sendHar(res, plane.journal.entries(journalQuery(req)), { version: plane.version, origin });
  });
  router.get('/requests/:n', (req, res) => {
    const n = String(req.params['n']);
    const entry = /^\d{1,15}$/.test(n) ? plane.journal.find(Number(n)) : undefined;
    if (!entry) {
      throw new A2AError(
        'MethodNotFoundError',
        `No request ${n.slice(0, 20)} in the journal (it keeps the newest).`,
        {
          httpStatus: 404,
        },
      );
    }
    ok(res, entry);
  });
  router.delete('/requests', (_req, res) => {
    plane.journal.clear();
    res.status(204).end();
  });

  router.post('/cards/check', async (req, res) => {
    const body = await readJsonBody(req, res, { limitBytes: CARD_CHECK_BYTES, by: "the admin API's limit" });
    const { card, version } = (isRecord(body) ? body : {}) as { card?: unknown; version?: unknown };
    if (version !== '1.0' && version !== '0.3') {
      throw invalidParams([
        { field: 'version', description: 'the version the card is read as: "1.0" or "0.3"' },
      ]);
    }
    ok(res, { problems: checkCard(card, version) });
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

/** The journal's filters, the same for its list and its HAR export. */
function journalQuery(req: Request): JournalQuery {
  const { binding, method, taskId, workspace, since } = stringQuery(req);
  return {
    ...(binding !== undefined && { binding }),
    ...(method !== undefined && { method }),
    ...(taskId !== undefined && { taskId }),
    ...(workspace !== undefined && { workspace }),
    ...(since !== undefined && { since: /^\d+$/.test(since) ? Number(since) : Date.parse(since) }),
    ...after(req),
  };
}

function after(req: Request): { after?: number } {
  const value = req.query['after'];
  return typeof value === 'string' && /^\d+$/.test(value) ? { after: Number(value) } : {};
}

/** Admin bodies are a few small fields: 64 KiB is plenty, whatever --max-body-bytes allows the agents. */
function jsonBody(req: Request, res: Response): Promise<unknown> {
  return readJsonBody(req, res, { limitBytes: 64 * 1024, by: "the admin API's limit", optional: true });
}
