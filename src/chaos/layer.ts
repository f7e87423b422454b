/**
 * The chaos layer: a layer of every agent's call pipeline, in front of the simulator's service. It changes only what one
 * connection sees (delays, refusals, cut or repeated streams, quirks), never what happened: the
 * task and its event log stay exact, so GetTask and a resume always recover everything.
 *
 * The profile for a call overlays, lowest first: the global `--chaos`, the scenario's `chaos`,
 * `metadata.chaos` on the message, and the `X-Sim-Chaos` header. Every random choice comes from
 * the seed's chaos stream, keyed by the order of calls and streams, so the same seed and the same
 * requests meet the same faults at the same events; the task's own content and timing never change.
 */
import { A2AError, invalidParams } from '../domain/errors.js';
import type { JsonObject, SendResult } from '../domain/types.js';
import { sampleDelay } from '../lib/delay.js';
import type { Clock } from '../lib/clock.js';
import { merge } from '../lib/objects.js';
import { Random } from '../lib/random.js';
import type { CallContext, TaskService } from '../runtime/api.js';
import type { TaskStream } from '../runtime/stream.js';
import type { Call, Layer, Next } from '../calls/pipeline.js';
import { isStreaming, taskIdOf, type Answer, type Operation } from '../calls/operations.js';
import { ConnectionFault, type WireStream } from '../calls/wire.js';
import type { Scenario } from '../scenario/model.js';
import type { ScenarioRegistry } from '../scenario/registry.js';
import type { FaultLog, FaultRecord } from './fault-log.js';
import { compilePlan, type ChaosPlan } from './plan.js';
import { ChaosSyntaxError, parseChaosPairs } from './pairs.js';
import { isQuiet, overlay, type ChaosLevel, type RawChaosProfile } from './profile.js';
import { ClientCalls } from './client-calls.js';
import { LateResumes, resumeExpired } from './late-resume.js';
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

/** What chaos asks of the service behind it to choose its chaos. */
export type ChaosSubject = Pick<TaskService, 'scenarios' | 'scenarioFor' | 'scenarioOfTask' | 'currentTask'>;

/** The call, carrying how the webhooks it creates misbehave. */
function withDeliveryChaos(call: Call, plan: ChaosPlan): Call {
  return plan.delivery ? { ...call, ctx: merge(call.ctx, { deliveryChaos: plan.delivery }) } : call;
}

/** Whether any scenario of a registry has chaos of its own (registries are replaced, never changed). */
const chaosInRegistry = new WeakMap<ScenarioRegistry, boolean>();

/** The chaos layer of a service's pipeline. */
export function chaosLayer(subject: ChaosSubject, options: ChaosOptions): Layer {
  const chaos = new Chaos(subject, options);
  return (call, next) => chaos.serve(call, next);
}

class Chaos {
  private calls = 0;
  private streams = 0;
  private readonly lateResumes = new LateResumes();
  private readonly clientCalls = new ClientCalls();

  constructor(
    private readonly inner: ChaosSubject,
    private readonly options: ChaosOptions,
  ) {}

  /** Not async itself: a call without chaos passes on with no promise of its own. */
  serve(call: Call, next: Next): Promise<Answer> {
    const { operation: op, ctx } = call;
    const metadata = op.name === 'send' || op.name === 'stream' ? op.request.message.metadata : undefined;
    try {
      const plan = this.planFor(call, () => this.scenarioOf(op, ctx), metadata);
      return plan ? this.serveWith(plan, call, next) : next(call);
    } catch (error) {
      // A malformed chaos header or metadata is the call's refusal, as from any layer.
      return Promise.reject(error);
    }
  }

  private async serveWith(plan: ChaosPlan, call: Call, next: Next): Promise<Answer> {
    const { operation: op } = call;
    if (isStreaming(op)) {
      if (op.name === 'subscribe') this.refuseLateResume(plan, call, op.taskId);
      return this.disturb((await next(withDeliveryChaos(call, plan))) as TaskStream, plan, call);
    }
    const taskId = taskIdOf(op);
    const random = this.refuseOrPass(plan, call, taskId);
    const answer = await next(withDeliveryChaos(call, plan));
    const about = op.name === 'send' ? sentTaskId(answer as SendResult) : taskId;
    await this.answerLater(plan, random, call, about);
    return answer;
  }

  /** The scenario the call is about: its message's, or its task's. */
  private scenarioOf(op: Operation, ctx: CallContext): Scenario | undefined {
    if (op.name === 'send' || op.name === 'stream') return this.inner.scenarioFor(op.request, ctx);
    const taskId = taskIdOf(op);
    return taskId === undefined ? undefined : this.inner.scenarioOfTask(taskId, ctx);
  }

  /**
   * The plan for a call, or undefined when no level asks for chaos. The scenario is looked up only
   * when some scenario has chaos of its own: the common case, no chaos at all, costs next to nothing.
   */
  private planFor(
    call: Call,
    scenario: () => Scenario | undefined,
    metadata?: JsonObject,
  ): ChaosPlan | undefined {
    const global = this.options.global.level;
    const fromScenario = this.scenariosHaveChaos() ? this.scenarioLevel(scenario()) : undefined;
    const fromMetadata = this.parseLevel(metadata?.['chaos'], 'message.metadata.chaos');
    const fromHeader = this.parseLevel(call.chaos, 'X-Sim-Chaos');
    // Most calls: no level asks for chaos, and nothing more is built to find that out.
    if (!global && !fromScenario && !fromMetadata && !fromHeader) return undefined;
    const levels: [string, ChaosLevel | undefined][] = [
      ['global', global],
      ['scenario', fromScenario],
      ['metadata', fromMetadata],
      ['header', fromHeader],
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
  private refuseOrPass(plan: ChaosPlan, call: Call, taskId: string | undefined): Random {
    const n = ++this.calls;
    const random = new Random(`${this.options.seed}/chaos/call-${n}`);
    const errors = plan.errors;
    if (!errors) return random;
    const fails =
      (errors.onCall !== undefined && this.clientCalls.next(clientOf(call)) === errors.onCall) ||
      (errors.rate !== undefined && random.next() < errors.rate);
    if (!fails) return random;
    this.record(plan, call, {
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

  /** Throws when this subscription resumes a stream chaos cut, later than `drop.resumeWithin` allows. */
  private refuseLateResume(plan: ChaosPlan, call: Call, taskId: string): void {
    const window = plan.resumeWithinMs;
    if (window === undefined) return;
    const late = this.lateResumes.lateBy(clientOf(call), taskId, this.options.clock.now(), window);
    if (late === undefined) return;
    this.record(plan, call, { kind: 'error', detail: { error: 'resume-expired', afterMs: late }, taskId });
    throw resumeExpired(taskId, late, window, plan.name);
  }

  private async answerLater(
    plan: ChaosPlan,
    random: Random,
    call: Call,
    taskId: string | undefined,
  ): Promise<void> {
    if (!plan.firstByte) return;
    const ms = sampleDelay(plan.firstByte, random);
    if (ms <= 0) return;
    this.record(plan, call, { kind: 'delay', detail: { where: 'response', ms }, ...(taskId && { taskId }) });
    await new Promise<void>((resolve) => this.options.clock.setTimer(ms, resolve));
  }

  private disturb(stream: TaskStream, plan: ChaosPlan, call: Call): WireStream {
    const { taskId } = stream;
    const { ctx } = call;
    return chaoticStream(stream, plan, {
      clock: this.options.clock,
      random: new Random(`${this.options.seed}/chaos/stream-${++this.streams}`),
      record: (fault) => this.record(plan, call, { ...(taskId && { taskId }), ...fault }),
      ...(taskId && { currentTask: () => this.inner.currentTask(taskId, ctx) }),
    });
  }

  /** Records a fault, on the fault log and on the exchange it hit: a drop is how its stream ended. */
  private record(
    plan: ChaosPlan,
    call: Call,
    fault: Pick<FaultRecord, 'kind' | 'detail' | 'taskId' | 'seq'>,
  ) {
    const { exchange } = call;
    const recorded = this.options.faults.applied(
      { at: new Date(this.options.clock.now()).toISOString(), profile: plan.name, ...fault },
      exchange,
    );
    if (fault.kind === 'drop') {
      exchange.ended ??= 'cut';
      exchange.cutBy ??= recorded.n;
      if (plan.resumeWithinMs !== undefined && fault.taskId !== undefined)
        this.lateResumes.cut(clientOf(call), fault.taskId, this.options.clock.now());
    }
  }
}

/** Who made the call, as the late resumes know it. */
const clientOf = (call: Call): string => call.ctx.client?.id ?? '';

function sentTaskId(result: SendResult): string | undefined {
  return result.kind === 'task' ? result.task.id : undefined;
}
