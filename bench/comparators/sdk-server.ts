/**
 * Bench comparator: the smallest server built from the official `@a2a-js/sdk` that answers the bench's
 * requests: `DefaultRequestHandler` + `InMemoryTaskStore` behind the SDK's express handlers (REST and
 * JSON-RPC at the root, v0.3 through `legacyCompat`, the agent card), with an AgentExecutor that
 * completes at once with one text artifact.
 *
 * Prints `listening on http://127.0.0.1:PORT` once it accepts connections.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import express from 'express';
import { AGENT_CARD_PATH, TaskState, type AgentCard } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';

/** Completes every task at once: the task, one "Weather Report" artifact, COMPLETED. */
class CompleteAtOnce implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = ctx;
    const timestamp = () => new Date().toISOString();
    if (!ctx.task) {
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: timestamp(), message: undefined },
          artifacts: [],
          history: [ctx.userMessage],
          metadata: undefined,
        }),
      );
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
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, timestamp: timestamp(), message: undefined },
        metadata: undefined,
      }),
    );
  }

  async cancelTask(): Promise<void> {}
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
