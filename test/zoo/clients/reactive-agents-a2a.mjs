// @reactive-agents/a2a as its README shows it: the A2AClient service of createA2AClient({ baseUrl }),
// run as an Effect program. Its client speaks A2A v0.3 JSON-RPC to baseUrl with message/send,
// tasks/get and tasks/cancel only (dist/index.js, src/client/a2a-client.ts, makeRequest): no
// streaming, no resubscribe, no retries. The README's message has no messageId, which the v0.3
// schema requires (the simulator refuses it with -32602): the script adds one, and `kind`.
import { step } from '../lib/script.mjs';

const message = (text, ids = {}) => ({
  message: {
    kind: 'message',
    role: 'user',
    messageId: crypto.randomUUID(),
    parts: [{ kind: 'text', text }],
    ...ids,
  },
});

export const client = {
  id: 'reactive-agents-a2a',
  library: '@reactive-agents/a2a',
  version: '0.9.0',
  api: 'createA2AClient + A2AClient (Effect), JSON-RPC 0.3 message/send, tasks/get, tasks/cancel; no streaming',
  load: () => Promise.all([import('effect'), import('@reactive-agents/a2a')]),
  drive: async (url) => {
    const [{ Effect }, { A2AClient, createA2AClient, discoverAgent }] = await Promise.all([
      import('effect'),
      import('@reactive-agents/a2a'),
    ]);
    const layer = createA2AClient({ baseUrl: url });
    /** Runs one A2AClient call as the README does: Effect.runPromise(Effect.provide(program, layer)). */
    const run = (call) =>
      Effect.runPromise(
        Effect.provide(
          Effect.flatMap(A2AClient, (a2a) => call(a2a)),
          layer,
        ),
      );

    // discoverAgent asks for /.well-known/agent.json (the pre-0.3 path, which the simulator still
    // serves), then /agent/card, never /.well-known/agent-card.json.
    await step('discover', () => Effect.runPromise(discoverAgent(url)));
    // sendMessage is typed as answering { taskId }, but it answers the JSON-RPC result: a v0.3 Task, with `id`.
    const weather = await step('send', () =>
      run((a2a) => a2a.sendMessage(message('What is the weather today?'))),
    );
    // No streaming in the library: the long report is a blocking message/send like the others.
    await step('report', () =>
      run((a2a) => a2a.sendMessage(message('Write a long report on climate change'))),
    );
    const flight = await step('ask', () => run((a2a) => a2a.sendMessage(message('Book me a flight'))));
    if (flight?.status?.state === 'input-required') {
      await step('answer', () =>
        run((a2a) =>
          a2a.sendMessage(message('From Oslo to Rome', { taskId: flight.id, contextId: flight.contextId })),
        ),
      );
    }
    if (weather?.id) await step('get', () => run((a2a) => a2a.getTask({ id: weather.id })));
    const report = await step('start', () =>
      run((a2a) =>
        a2a.sendMessage({
          ...message('Write a long report on climate change'),
          configuration: { blocking: false },
        }),
      ),
    );
    if (report?.id) await step('cancel', () => run((a2a) => a2a.cancelTask({ id: report.id })));
  },
  expect: {
    reconnect: { 'input-required-continuation': 'pass' },
    polling: { 'no-poll-after-terminal': 'pass' },
    errors: { 'retry-after': 'fail' },
    all: { 'retry-after': 'fail', 'input-required-continuation': 'pass' },
  },
  evidence: {
    'retry-after':
      "makeRequest (src/client/a2a-client.ts) reads the 503's JSON-RPC error body without looking at the status or Retry-After and fails the Effect at once, with no retry of its own, so the script's next call comes right away and the weather question is lost.",
    'no-poll-after-terminal':
      'The library never polls: getTask is the one tasks/get the script makes, of the weather task a blocking message/send had shown completed.',
    'input-required-continuation':
      'sendMessage sends the message as given (SendMessageParams has taskId and contextId), and the script answers with the taskId and contextId of the task that asked.',
  },
  notes: [
    'No streaming client at all (message/send, tasks/get, tasks/cancel only): the report is a blocking send, and no stream rule is exercised; no peer (@reactive-agents/identity) is needed for the client.',
    "sendMessage is typed Effect<{ taskId }> and the README destructures { taskId }, but it yields the JSON-RPC result, a v0.3 Task whose id is `id`: the README's getTask({ id: taskId }) asks for task undefined.",
    "The README's message has no messageId, which the v0.3 schema requires: the simulator refuses it with -32602.",
    "Every failure, a JSON-RPC error included, becomes a TransportError whose message is String(error) (Effect.tryPromise's catch): the declared A2AError channel and its code are never used.",
    'TaskStateSchema spells input_required where v0.3 sends input-required; getAgentCard(url) fetches ${url}/agent/card and discoverAgent /.well-known/agent.json (the pre-0.3 path, which the simulator still serves), never /.well-known/agent-card.json.',
  ],
};
