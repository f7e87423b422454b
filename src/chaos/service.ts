/**
 * The chaos layer: an A2AService in front of the simulator's own. It changes only what one
 * connection sees (delays, refusals, cut or repeated streams, quirks), never what happened: the
 * task and its event log stay exact, so GetTask and a resume always recover everything.
 *
 * The profile for a call overlays, lowest first: the global `--chaos`, the scenario's `chaos`,
 * `metadata.chaos` on the message, and the `X-Sim-Chaos` header. Every random choice comes from
 * the seed's chaos stream, keyed by the order of calls and streams, so the same seed and the same
 * requests meet the same faults at the same events; the task's own content and timing never change.
 */
import { A2AError, invalidParams } from '../domain/errors.js';
import type {
  JsonObject,
  ListTasksQuery,
  PushConfig,
  PushConfigInput,
  SendRequest,
  TaskView,
} from '../domain/types.js';
import { sampleDelay } from '../lib/delay.js';
import type { Clock } from '../lib/clock.js';
import { Random } from '../lib/random.js';
import type { CallContext, PushConfigPage, PushConfigPageQuery, TaskService } from '../runtime/api.js';
import type { TaskStream } from '../runtime/stream.js';
import { ConnectionFault, type WireService, type WireStream } from './wire.js';
import type { Scenario } from '../scenario/model.js';
import type { ScenarioRegistry } from '../scenario/registry.js';
import type { FaultLog, FaultRecord } from './fault-log.js';
import { compilePlan, type ChaosPlan } from './plan.js';
import { ChaosSyntaxError, parseChaosPairs } from './pairs.js';
import { isQuiet, overlay, type ChaosLevel, type RawChaosProfile } from './profile.js';
import { scenarioChaos } from './scenario-chaos.js';
import type { GlobalChaos } from './setting.js';
import { chaoticStream } from './stream.js';

export interface ChaosOptions {
  clock: Clock;
  seed: string;
  /** Named profiles, by name. */
  profiles: ReadonlyMap<string, RawChaosProfile>;
  /** `--chaos`: the level every call starts from; the control plane may change it while running. */
  global: GlobalChaos;
  faults: FaultLog;
}

/** The call, carrying how the webhooks it creates misbehave. */
function withDeliveryChaos(ctx: CallContext, plan: ChaosPlan | undefined): CallContext {
  return plan?.delivery ? { ...ctx, deliveryChaos: plan.delivery } : ctx;
}

/** Whether any scenario of a registry has chaos of its own (registries are replaced, never changed). */
const chaosInRegistry = new WeakMap<ScenarioRegistry, boolean>();

export class ChaosService implements WireService {
  private calls = 0;
  private streams = 0;

  constructor(
    private readonly inner: TaskService,
    private readonly options: ChaosOptions,
  ) {}

  async send(request: SendRequest, ctx: CallContext) {
    const plan = this.planFor(ctx, () => this.inner.scenarioFor(request, ctx), request.message.metadata);
    const random = this.refuseOrPass(plan, ctx, request.message.taskId);
    const result = await this.inner.send(request, withDeliveryChaos(ctx, plan));
    await this.answerLater(plan, random, ctx, result.kind === 'task' ? result.task.id : undefined);
    return result;
  }

  async stream(request: SendRequest, ctx: CallContext): Promise<WireStream> {
    const plan = this.planFor(ctx, () => this.inner.scenarioFor(request, ctx), request.message.metadata);
    return this.disturb(await this.inner.stream(request, withDeliveryChaos(ctx, plan)), plan, ctx);
  }

  async getTask(id: string, historyLength: number | undefined, ctx: CallContext): Promise<TaskView> {
    return this.call(
      ctx,
      () => this.inner.scenarioOfTask(id, ctx),
      id,
      () => this.inner.getTask(id, historyLength, ctx),
    );
  }

  async listTasks(query: ListTasksQuery, ctx: CallContext) {
    return this.call(
      ctx,
      () => undefined,
      undefined,
      () => this.inner.listTasks(query, ctx),
    );
  }

  async cancelTask(id: string, ctx: CallContext): Promise<TaskView> {
    return this.call(
      ctx,
      () => this.inner.scenarioOfTask(id, ctx),
      id,
      () => this.inner.cancelTask(id, ctx),
    );
  }

  async createPushConfig(taskId: string, input: PushConfigInput, ctx: CallContext): Promise<PushConfig> {
    return this.call(
      ctx,
      () => this.inner.scenarioOfTask(taskId, ctx),
      taskId,
      (plan) => this.inner.createPushConfig(taskId, input, withDeliveryChaos(ctx, plan)),
    );
  }

  async getPushConfig(taskId: string, configId: string | undefined, ctx: CallContext): Promise<PushConfig> {
    return this.call(
      ctx,
      () => this.inner.scenarioOfTask(taskId, ctx),
      taskId,
      () => this.inner.getPushConfig(taskId, configId, ctx),
    );
  }

  async listPushConfigs(
    taskId: string,
    page: PushConfigPageQuery,
    ctx: CallContext,
  ): Promise<PushConfigPage> {
    return this.call(
      ctx,
      () => this.inner.scenarioOfTask(taskId, ctx),
      taskId,
      () => this.inner.listPushConfigs(taskId, page, ctx),
    );
  }

  async deletePushConfig(taskId: string, configId: string, ctx: CallContext): Promise<void> {
    return this.call(
      ctx,
      () => this.inner.scenarioOfTask(taskId, ctx),
      taskId,
      () => this.inner.deletePushConfig(taskId, configId, ctx),
    );
  }

  subscribe(id: string, ctx: CallContext, resume: { afterSeq?: number } = {}): WireStream {
    const plan = this.planFor(ctx, () => this.inner.scenarioOfTask(id, ctx));
    return this.disturb(this.inner.subscribe(id, ctx, resume), plan, ctx);
  }

  /** A non-streaming call: maybe refused, then answered, maybe late. */
  private async call<T>(
    ctx: CallContext,
    scenario: () => Scenario | undefined,
    taskId: string | undefined,
    work: (plan: ChaosPlan | undefined) => T,
  ): Promise<T> {
    const plan = this.planFor(ctx, scenario);
    const random = this.refuseOrPass(plan, ctx, taskId);
    const result = work(plan);
    await this.answerLater(plan, random, ctx, taskId);
    return result;
  }

  /**
   * The plan for a call, or undefined when no level asks for chaos. The scenario is looked up only
   * when some scenario has chaos of its own: the common case, no chaos at all, costs next to nothing.
   */
  private planFor(
    ctx: CallContext,
    scenario: () => Scenario | undefined,
    metadata?: JsonObject,
  ): ChaosPlan | undefined {
    const levels: [string, ChaosLevel | undefined][] = [
      ['global', this.options.global.level],
      ['scenario', this.scenariosHaveChaos() ? this.scenarioLevel(scenario()) : undefined],
      ['metadata', this.parseLevel(metadata?.['chaos'], 'message.metadata.chaos')],
      ['header', this.parseLevel(ctx.request?.chaos, 'X-Sim-Chaos')],
    ];
    let profile: RawChaosProfile = {};
    let names: string[] = [];
    for (const [where, level] of levels) {
      if (!level) continue;
      if (level.off) [profile, names] = [{}, []];
      if (level.profile !== undefined) {
        profile = overlay(profile, this.named(level.profile, where));
        names.push(level.profile);
      }
      if (level.settings) {
        profile = overlay(profile, level.settings);
        names.push(where);
      }
    }
    return isQuiet(profile) ? undefined : compilePlan(names.join('+'), profile);
  }

  private scenariosHaveChaos(): boolean {
    const registry = this.inner.scenarios;
    let answer = chaosInRegistry.get(registry);
    if (answer === undefined) {
      answer = registry.list().some((s) => s.chaos !== undefined);
      chaosInRegistry.set(registry, answer);
    }
    return answer;
  }

  private scenarioLevel(scenario: Scenario | undefined): ChaosLevel | undefined {
    if (!scenario) return undefined;
    try {
      return scenarioChaos(scenario);
    } catch (error) {
      // A scenario loaded without the chaos check (a test's) can still carry a bad text.
      if (error instanceof ChaosSyntaxError) {
        throw invalidParams([{ field: `scenario ${scenario.id} chaos`, description: error.message }]);
      }
      throw error;
    }
  }

  private parseLevel(value: unknown, field: string): ChaosLevel | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      throw invalidParams([
        { field, description: 'must be a string like "drop-after-events=3, drop-mode=reset"' },
      ]);
    }
    try {
      return parseChaosPairs(value);
    } catch (error) {
      if (error instanceof ChaosSyntaxError) throw invalidParams([{ field, description: error.message }]);
      throw error;
    }
  }

  private named(name: string, where: string): RawChaosProfile {
    const profile = this.options.profiles.get(name);
    if (profile) return profile;
    // The global and scenario levels were checked at startup (an unknown name there was reported).
    if (where === 'global' || where === 'scenario') return {};
    const known = [...this.options.profiles.keys()].join(', ') || '(none)';
    throw invalidParams([
      {
        field: where === 'header' ? 'X-Sim-Chaos' : `${where} chaos`,
        description: `no chaos profile "${name}"; profiles: ${known}`,
      },
    ]);
  }

  /** Throws the call's injected error, if it draws one; returns the call's random stream. */
  private refuseOrPass(
    plan: ChaosPlan | undefined,
    ctx: CallContext,
    taskId: string | undefined,
  ): Random | undefined {
    if (!plan) return undefined;
    const n = ++this.calls;
    const random = new Random(`${this.options.seed}/chaos/call-${n}`);
    const errors = plan.errors;
    if (!errors) return random;
    const fails = errors.onCall === n || (errors.rate !== undefined && random.next() < errors.rate);
    if (!fails) return random;
    this.record(plan, ctx, {
      kind: 'error',
      detail: { error: errors.kind, call: n },
      ...(taskId && { taskId }),
    });
    const why = `simulated by chaos profile "${plan.name}"`;
    switch (errors.kind) {
      case '503':
        throw new A2AError('UnavailableError', `Service unavailable (${why}); retry later.`, {
          retryAfterMs: errors.retryAfterMs,
        });
      case '429':
        throw new A2AError('ResourceExhaustedError', `Too many requests (${why}); retry later.`, {
          retryAfterMs: errors.retryAfterMs,
        });
      case '500':
        throw new A2AError('InternalError', `Internal error (${why}).`, { httpStatus: 500 });
      case 'rpc-internal':
        throw new A2AError('InternalError', `Internal error (${why}).`);
      case 'empty':
      case 'reset':
        throw new ConnectionFault(errors.kind);
    }
  }

  private async answerLater(
    plan: ChaosPlan | undefined,
    random: Random | undefined,
    ctx: CallContext,
    taskId: string | undefined,
  ): Promise<void> {
    if (!plan?.firstByte || !random) return;
    const ms = sampleDelay(plan.firstByte, random);
    if (ms <= 0) return;
    this.record(plan, ctx, { kind: 'delay', detail: { where: 'response', ms }, ...(taskId && { taskId }) });
    await new Promise<void>((resolve) => this.options.clock.setTimer(ms, resolve));
  }

  private disturb(stream: TaskStream, plan: ChaosPlan | undefined, ctx: CallContext): WireStream {
    if (!plan) return stream;
    const { taskId } = stream;
    return chaoticStream(stream, plan, {
      clock: this.options.clock,
      random: new Random(`${this.options.seed}/chaos/stream-${++this.streams}`),
      record: (fault) => this.record(plan, ctx, { ...(taskId && { taskId }), ...fault }),
      ...(taskId && { currentTask: () => this.inner.currentTask(taskId, ctx) }),
    });
  }

  private record(
    plan: ChaosPlan,
    ctx: CallContext,
    fault: Pick<FaultRecord, 'kind' | 'detail' | 'taskId' | 'seq'>,
  ) {
    this.options.faults.record({
      at: new Date(this.options.clock.now()).toISOString(),
      profile: plan.name,
      ...fault,
      ...(ctx.request && { request: ctx.request }),
    });
  }
}
