// AG-UI's A2A middleware (@ag-ui/a2a-middleware): an AG-UI agent that wraps an orchestrating LLM
// agent and, when the LLM calls its `send_message_to_a2a_agent` tool, sends the tool's `task` text
// to the named A2A agent. Without an LLM nothing calls the tool, so the script calls the tool's
// body itself, A2AMiddlewareAgent.sendMessageToA2AAgent(agentName, task) (private in TypeScript
// only), with the agent's name from the cards the middleware fetched, as the LLM would. That is
// all of the library that speaks A2A: one message/send (A2AClient of @a2a-js/sdk 0.2, JSON-RPC
// 0.3) per tool call, no stream, no GetTask, no cancel (src/index.ts in dist/index.js.map).
import { A2AMiddlewareAgent } from '@ag-ui/a2a-middleware';
import { AbstractAgent, EventType } from '@ag-ui/client';
import { Observable } from 'rxjs';
import { step } from '../lib/script.mjs';

/** Stands in for the orchestrating LLM the middleware needs to be made; never run here. */
class NoOrchestrator extends AbstractAgent {
  run(input) {
    return new Observable((o) => {
      o.next({ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId });
      o.next({ type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId });
      o.complete();
    });
  }
}

export const client = {
  id: 'ag-ui-a2a-middleware',
  library: '@ag-ui/a2a-middleware',
  version: '0.0.2',
  api: 'A2AMiddlewareAgent.sendMessageToA2AAgent (the send_message_to_a2a_agent tool body, called directly: no LLM); JSON-RPC 0.3 via @a2a-js/sdk 0.2.5',
  drive: async (url) => {
    const middleware = new A2AMiddlewareAgent({ agentUrls: [url], orchestrationAgent: new NoOrchestrator() });
    const cards = await step('cards', () => middleware.agentCards);
    const name = cards?.[0]?.name ?? 'A2A Simulator';
    // What the LLM would put in the tool's `task` argument, one call per user request.
    for (const task of ['What is the weather today?', 'Book me a flight', 'From Oslo to Rome']) {
      await step(`send_message_to_a2a_agent(${task})`, () => middleware.sendMessageToA2AAgent(name, task));
    }
  },
  expect: {
    errors: { 'retry-after': 'fail' },
    all: { 'retry-after': 'fail' },
  },
  evidence: {
    'retry-after':
      "Nothing in the middleware retries or reads Retry-After: sendMessageToA2AAgent (src/index.ts) throws on the refused call (@a2a-js/sdk 0.2.5's A2AClient._postRpcRequest even reads the 503's body twice and throws 'Body is unusable'), and the next tool call goes out at once.",
  },
  notes: [
    'It sends the message with role "agent" (sendMessageToA2AAgent, src/index.ts), which an A2A agent may refuse: the simulator answers every call with -32602 (message.role: a client sends messages with role user), so the middleware never gets a task at all and no other rule is exercised.',
    'It sends no contextId or taskId: every tool call is a new conversation, so an input-required task cannot be answered (the LLM is told to restate the context in the next task text instead).',
    'It only sends (message/send, with no configuration): no stream, no GetTask, no cancel, so the script has no stream, get or cancel step.',
    "A refused tool call rejects inside wrapStream's Promise.all(callProms).then(...), which has no catch (src/index.ts): with a real orchestrator the run would not emit RUN_FINISHED and the rejection goes unhandled.",
    'Its messageId is Date.now(): two tool calls in the same millisecond share one.',
    'The A2AClient it makes (new A2AClient(url), @a2a-js/sdk 0.2.5) fetches /.well-known/agent.json, not agent-card.json.',
  ],
};
