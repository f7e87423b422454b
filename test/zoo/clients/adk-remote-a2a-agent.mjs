// @google/adk's RemoteA2AAgent as its docs show it: the remote agent as an ADK agent, run by an
// InMemoryRunner (no LLM: the remote agent answers), one session per conversation, each user turn a
// runner.runAsync. Under it, @a2a-js/sdk 0.3.14's ClientFactory picks the card's preferred
// transport (JSONRPC, v0.3: message/stream while the card says streaming). RemoteA2AAgent sends
// and streams messages only: it offers no GetTask, CancelTask or resubscribe, so the script has no
// such steps.
import { step } from '../lib/script.mjs';

const USER = 'zoo-user';

/** One user turn: runs the agent to the end of its events; an error event is what the user saw fail. */
async function turn(runner, session, text) {
  const events = [];
  for await (const event of runner.runAsync({
    userId: USER,
    sessionId: session.id,
    newMessage: { role: 'user', parts: [{ text }] },
  })) {
    events.push(event);
  }
  const failed = events.find((e) => e.errorMessage);
  if (failed) throw new Error(`${text}: ${failed.errorMessage}`);
  return events;
}

export const client = {
  id: 'adk-remote-a2a-agent',
  library: '@google/adk',
  version: '2.0.0',
  api: 'RemoteA2AAgent under InMemoryRunner (@a2a-js/sdk 0.3.14, JSON-RPC 0.3 message/stream); agentCard: the base URL',
  load: () => import('@google/adk'),
  drive: async (url) => {
    const { InMemoryRunner, RemoteA2AAgent } = await import('@google/adk');
    // The glue: `agentCard` is documented as the "URL to AgentCard", but resolveAgentCard
    // (dist/esm/a2a/agent_card.js) hands it to @a2a-js/sdk's DefaultAgentCardResolver.resolve,
    // which resolves AGENT_CARD_PATH against it (new URL('.well-known/agent-card.json', source)):
    // the card's own URL becomes /.well-known/.well-known/agent-card.json (404). The base URL works.
    const agent = new RemoteA2AAgent({ name: 'sim', agentCard: `${url}/` });
    const runner = new InMemoryRunner({ agent, appName: 'zoo' });
    const conversation = () => runner.sessionService.createSession({ appName: 'zoo', userId: USER });

    await step('send', async () => turn(runner, await conversation(), 'What is the weather today?'));
    await step('stream', async () =>
      turn(runner, await conversation(), 'Write a long report on climate change'),
    );
    await step('flight', async () => {
      const session = await conversation();
      await turn(runner, session, 'Book me a flight');
      // The answer is the next user turn of the same session, as ADK continues a conversation.
      await turn(runner, session, 'From Oslo to Rome');
    });
  },
  expect: {
    reconnect: { 'no-lost-events': 'fail' },
    quirks: { 'unknown-state': 'pass' },
    all: { 'no-lost-events': 'fail' },
  },
  evidence: {
    'no-lost-events':
      "RemoteA2AAgent.runAsyncImpl (dist/esm/a2a/a2a_remote_agent.js) reads client.sendMessageStream once: @a2a-js/sdk 0.3.14's parseSseStream ends quietly at the cut and the turn ends there, with neither resubscribeTask nor getTask (RemoteA2AAgent calls neither), so the weather and the report lose every event after the second.",
    'unknown-state':
      'toAdkEvent (dist/esm/a2a/event_converter_utils.js) turns a non-final status-update without a message into no event and reads on, so it follows the task past the made-up state to its end (under all every stream is cut, which leaves the rule to no-lost-events).',
  },
  notes: [
    "Glue: agentCard is documented as the 'URL to AgentCard', but resolveAgentCard (dist/esm/a2a/agent_card.js) passes it to @a2a-js/sdk's DefaultAgentCardResolver.resolve, which resolves AGENT_CARD_PATH against it (new URL('.well-known/agent-card.json', source)): the card URL itself becomes /.well-known/.well-known/agent-card.json (404, thrown out of runner.runAsync because init() runs outside the agent's try), so the script passes the base URL.",
    'It answers an input-required task with the contextId only, never its taskId (toMissingRemoteSessionParts in dist/esm/a2a/a2a_remote_agent_utils.js; taskId is sent only for a function response to a long-running tool call), so the simulator starts a new task: input-required-continuation fails on a run without cuts, but every zoo curriculum judging it cuts the flight stream before input-required shows, so it is not exercised here.',
    'A cut stream ends the turn without an error event and without a terminal state: the user gets a partial answer (or none) as if the agent had finished.',
    'RemoteA2AAgent offers no GetTask, CancelTask or resubscribe: the script has no get or cancel step; all its calls are message/stream, which errors-on-call does not refuse, so retry-after is not exercised.',
  ],
};
