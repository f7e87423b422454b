/**
 * Bench comparator: the smallest server built from the official `@a2a-js/sdk` that answers the bench's
 * requests: `DefaultRequestHandler` + `InMemoryTaskStore` behind the SDK's express handlers (REST and
 * JSON-RPC at the root, v0.3 through `legacyCompat`, the agent card), with an AgentExecutor that
 * completes at once with one text artifact.
 *
 * For the stream-cost workloads it also plays the simulator's two bench scenarios: a message whose
 * messageId starts `bench-append-` gets 500 bare WORKING updates then 1000 appended artifact chunks,
 * `bench-status-` the same 500 then 1000 status updates with a message, one event every 10 ms
 * (divided by `--speed N`), then COMPLETED: the same events as bench/scenarios/bench-append.yaml
 * and bench-status.yaml, in the same wire format. For the SSE workloads, a messageId starting
 * `bench-ticks-` gets bench-ticks.yaml: a WORKING status update with the message `tick k` at
 * k × 100 ms (also divided by `--speed`) after the Task's creation timestamp, `--ticks N` of them
 * (default 150), then COMPLETED; `bench-chunks-` gets bench-chunks.yaml: one artifact in `--chunks N`
 * appended chunks (default 100), chunk K at K × 100 ms saying `chunk K: ` and a fresh
 * faker.lorem.sentence, then COMPLETED, as the bare comparators play it (./work.ts). Each task plays
 * on a timer of its own.
 *
 * Prints `listening on http://127.0.0.1:PORT` once it accepts connections.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { Faker } from '@faker-js/faker';
import express from 'express';
import { AGENT_CARD_PATH, Role, TaskState, type AgentCard, type Part } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';

const { values: flags } = parseArgs({
  options: {
    speed: { type: 'string', default: '1' },
    ticks: { type: 'string', default: '150' },
    chunks: { type: 'string', default: '100' },
  },
});
const STREAM_EVENTS = 1000;
const STREAM_LEAD_EVENTS = 500;
const STREAM_INTERVAL_MS = 10 / Number(flags.speed);
const TICKS = Number(flags.ticks);
const TICK_MS = 100 / Number(flags.speed);
const CHUNKS = Number(flags.chunks);
/** faker.lorem.sentence's word count, as bench-chunks.yaml asks for it. */
const SENTENCE_WORDS = { min: 8, max: 14 };
const FILLER = 'lorem ipsum dolor sit amet, consectetur adipiscing elit';

const timestamp = (at = Date.now()) => new Date(at).toISOString();
const textPart = (text: string): Part => ({
  content: { $case: 'text', value: text },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

/** A status update without a message. */
const statusOnly = (taskId: string, contextId: string, state: TaskState) =>
  AgentEvent.statusUpdate({
    taskId,
    contextId,
    status: { state, timestamp: timestamp(), message: undefined },
    metadata: undefined,
  });

/** A WORKING status update whose message says `text`, as bench-status and bench-ticks play. */
const workingWithMessage = (taskId: string, contextId: string, text: string) =>
  AgentEvent.statusUpdate({
    taskId,
    contextId,
    status: {
      state: TaskState.TASK_STATE_WORKING,
      timestamp: timestamp(),
      message: {
        messageId: randomUUID(),
        contextId,
        taskId,
        role: Role.ROLE_AGENT,
        parts: [textPart(text)],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
    },
    metadata: undefined,
  });

/** Loaded by the first bench-chunks stream, not at startup (the startup workload times this server). */
let fakerLoading: Promise<Faker> | undefined;
const loadFaker = () => (fakerLoading ??= import('@faker-js/faker/locale/en').then((m) => m.faker));

/**
 * Completes every task at once: the task, one "Weather Report" artifact, COMPLETED; except the
 * bench-append, bench-status, bench-ticks and bench-chunks streams.
 */
class CompleteAtOnce implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = ctx;
    const streamed = /^bench-(append|status|ticks|chunks)-/.exec(ctx.userMessage.messageId)?.[1];
    const createdAt = Date.now();
    if (!ctx.task) {
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: {
            state: TaskState.TASK_STATE_SUBMITTED,
            timestamp: timestamp(createdAt),
            message: undefined,
          },
          artifacts: [],
          history: [ctx.userMessage],
          metadata: undefined,
        }),
      );
    }
    if (streamed === 'ticks') {
      await this.ticks(ctx, bus, createdAt);
      return;
    }
    if (streamed === 'chunks') {
      await this.chunks(ctx, bus, createdAt);
      return;
    }
    if (streamed) {
      await this.stream(ctx, bus, streamed === 'append');
      return;
    }
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: randomUUID(),
          name: 'Weather Report',
          description: '',
          parts: [
            {
              content: { $case: 'text', value: 'Today will be sunny with a high of 71°F' },
              metadata: undefined,
              filename: '',
              mediaType: 'text/plain',
            },
          ],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    bus.publish(statusOnly(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
  }

  /** Streams being played, task id → context id; a cancel removes its task. */
  private readonly streaming = new Map<string, string>();

  /** Event i (lead-in included) at i × 10 ms after the start, as the simulator schedules its scenarios. */
  private async stream(ctx: RequestContext, bus: ExecutionEventBus, append: boolean): Promise<void> {
    const { taskId, contextId } = ctx;
    const start = performance.now();
    const artifactId = randomUUID();
    this.streaming.set(taskId, contextId);
    for (let i = 1; i <= STREAM_LEAD_EVENTS + STREAM_EVENTS; i++) {
      await sleep(Math.max(0, start + i * STREAM_INTERVAL_MS - performance.now()));
      if (!this.streaming.has(taskId)) return;
      const k = i - STREAM_LEAD_EVENTS;
      if (k < 1) {
        bus.publish(statusOnly(taskId, contextId, TaskState.TASK_STATE_WORKING));
      } else if (append) {
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: {
              artifactId,
              name: 'Appended',
              description: '',
              parts: [textPart(`chunk ${k}: ${FILLER}\n`)],
              metadata: undefined,
              extensions: [],
            },
            append: k > 1,
            lastChunk: k === STREAM_EVENTS,
            metadata: undefined,
          }),
        );
      } else {
        bus.publish(workingWithMessage(taskId, contextId, `tick ${k}`));
      }
    }
    this.streaming.delete(taskId);
    bus.publish(statusOnly(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
  }

  /**
   * Tick k at k × TICK_MS after `createdAt`, the Task's status timestamp, from which the bench's SSE
   * client computes every tick's scheduled time.
   */
  private async ticks(ctx: RequestContext, bus: ExecutionEventBus, createdAt: number): Promise<void> {
    const { taskId, contextId } = ctx;
    this.streaming.set(taskId, contextId);
    for (let k = 1; k <= TICKS; k++) {
      await sleep(Math.max(0, createdAt + k * TICK_MS - Date.now()));
      if (!this.streaming.has(taskId)) return;
      bus.publish(workingWithMessage(taskId, contextId, `tick ${k}`));
    }
    this.streaming.delete(taskId);
    bus.publish(statusOnly(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
  }

  /** Chunk K at K × TICK_MS after `createdAt`, as bench-chunks.yaml schedules it; COMPLETED with the last. */
  private async chunks(ctx: RequestContext, bus: ExecutionEventBus, createdAt: number): Promise<void> {
    const { taskId, contextId } = ctx;
    const artifactId = randomUUID();
    this.streaming.set(taskId, contextId);
    const faker = await loadFaker();
    for (let k = 1; k <= CHUNKS; k++) {
      await sleep(Math.max(0, createdAt + k * TICK_MS - Date.now()));
      if (!this.streaming.has(taskId)) return;
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: {
            artifactId,
            name: 'Answer',
            description: '',
            parts: [textPart(`chunk ${k}: ${faker.lorem.sentence(SENTENCE_WORDS)}`)],
            metadata: undefined,
            extensions: [],
          },
          append: k > 1,
          lastChunk: k === CHUNKS,
          metadata: undefined,
        }),
      );
    }
    this.streaming.delete(taskId);
    bus.publish(statusOnly(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
  }

  /** Only bench streams are still running when a cancel comes: the bench cancels its warm-up stream. */
  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const contextId = this.streaming.get(taskId);
    if (contextId === undefined) return;
    this.streaming.delete(taskId);
    bus.publish(statusOnly(taskId, contextId, TaskState.TASK_STATE_CANCELED));
  }
}

const server = createServer();
server.listen(0, '127.0.0.1', () => {
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const iface = (protocolBinding: string, protocolVersion: string) => ({
    url: base,
    protocolBinding,
    tenant: '',
    protocolVersion,
  });
  const card: AgentCard = {
    name: 'SDK comparator',
    description: 'Completes every task at once with one text artifact.',
    supportedInterfaces: [
      iface('JSONRPC', '1.0'),
      iface('HTTP+JSON', '1.0'),
      iface('JSONRPC', '0.3'),
      iface('HTTP+JSON', '0.3'),
    ],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text'],
    defaultOutputModes: ['text'],
    skills: [
      {
        id: 'weather',
        name: 'Weather',
        description: 'Answers at once.',
        tags: ['bench'],
        examples: [],
        inputModes: ['text'],
        outputModes: ['text'],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new CompleteAtOnce());
  const userBuilder = UserBuilder.noAuthentication;
  const app = express();
  app.disable('x-powered-by');
  app.use(
    `/${AGENT_CARD_PATH}`,
    agentCardHandler({ agentCardProvider: requestHandler, legacyCompat: { enabled: true } }),
  );
  // REST first: the JSON-RPC router's content-type guard and body parser apply to every request
  // that reaches it, and it answers only `POST /`.
  app.use(restHandler({ requestHandler, userBuilder, legacyCompat: { enabled: true } }));
  app.use(jsonRpcHandler({ requestHandler, userBuilder, legacyCompat: { enabled: true } }));
  server.on('request', app);
  process.stdout.write(`listening on ${base}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
