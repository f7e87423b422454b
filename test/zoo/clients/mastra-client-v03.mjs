// @mastra/client-js as its docs show it (dist/docs/references/docs-connections-a2a.md): MastraClient's
// getA2A(agentId), the A2A v0.3 JSON-RPC client (message/send, message/stream, tasks/get,
// tasks/cancel, tasks/resubscribe, no A2A-Version header), resubscribing with resubscribeTask({id})
// when a stream disconnects while the task still runs, as the docs advise. The library has two A2A
// clients on one route: this one, and getA2AV1() (mastra-client-v1).
//
// Races: a resume that comes after the report's last event (100 ms after the chunk before it at
// --speed 10) finds the task ended and is refused, and one later than 50 ms after the cut is refused
// under expired-resume; a refused resubscribe throws, and the script reads the task with getTask
// before it subscribes again. Whether any resume is refused depends on how fast the client comes back.
import { resumingClientExpect } from '../lib/resuming-client.mjs';
import { step } from '../lib/script.mjs';

const AGENT = 'sim';
const TERMINAL = new Set(['completed', 'failed', 'canceled', 'rejected']);
const PAUSED = new Set(['input-required', 'auth-required']);
const RESUMES = 30;

/**
 * The glue: Mastra builds every URL as `${baseUrl}${apiPrefix}/a2a/${agentId}` (JSON-RPC) and
 * `${baseUrl}${apiPrefix}/.well-known/${agentId}/agent-card.json` (card), a Mastra server's routes.
 * Its documented `fetch` option takes them to a plain A2A agent's `/` and `/.well-known/agent-card.json`.
 */
const toPlainAgent = (url) => (input, init) =>
  fetch(
    String(input)
      .replace(`${url}/a2a/${AGENT}`, `${url}/`)
      .replace(`${url}/.well-known/${AGENT}/agent-card.json`, `${url}/.well-known/agent-card.json`),
    init,
  );

const message = (text, ids = {}) => ({
  message: {
    kind: 'message',
    role: 'user',
    messageId: crypto.randomUUID(),
    parts: [{ kind: 'text', text }],
    ...ids,
  },
});

/** The task an A2A v0.3 event or Task is about, and the state it shows. */
function seen(event, task) {
  task.id ??= event?.kind === 'task' ? event.id : event?.taskId;
  task.contextId ??= event?.contextId;
  const state = event?.status?.state;
  if (state) task.state = state;
}

/** Streams a message; when the stream breaks before the task ends, resubscribes as the docs show. */
async function streamToEnd(a2a, text) {
  const task = {};
  let events = a2a.sendMessageStream(message(text));
  for (let resumes = 0; resumes <= RESUMES; resumes++) {
    try {
      for await (const event of events) seen(event, task);
    } catch (error) {
      // A refused resubscribe (the task ended, or its events expired) throws: read the task first.
      if (!task.id) throw error;
      const read = await a2a.getTask({ id: task.id });
      seen(read.result, task);
    }
    if (!task.id || TERMINAL.has(task.state) || PAUSED.has(task.state)) return task;
    events = a2a.resubscribeTask({ id: task.id });
  }
  return task;
}

export const client = {
  id: 'mastra-client-v03',
  library: '@mastra/client-js',
  version: '1.47.0',
  api: 'MastraClient.getA2A (A2A v0.3 JSON-RPC), resubscribeTask after a cut; its fetch option maps the Mastra routes',
  load: () => import('@mastra/client-js'),
  drive: async (url) => {
    const { MastraClient } = await import('@mastra/client-js');
    const mastra = new MastraClient({ baseUrl: url, apiPrefix: '', fetch: toPlainAgent(url) });
    const a2a = mastra.getA2A(AGENT);
    await step('card', () => a2a.getAgentCard());
    const weather = await step(
      'send',
      async () => (await a2a.sendMessage(message('What is the weather today?'))).result,
    );
    await step('stream', () => streamToEnd(a2a, 'Write a long report on climate change'));
    const flight = await step('ask', async () => (await a2a.sendMessage(message('Book me a flight'))).result);
    if (flight?.status?.state === 'input-required') {
      await step('answer', () =>
        a2a.sendMessage(message('From Oslo to Rome', { taskId: flight.id, contextId: flight.contextId })),
      );
    }
    if (weather?.id) await step('get', () => a2a.getTask({ id: weather.id }));
    const report = await step('start', async () => {
      const sent = await a2a.sendMessage({
        ...message('Write a long report on climate change'),
        configuration: { blocking: false },
      });
      return sent.result;
    });
    if (report?.id) await step('cancel', () => a2a.cancelTask({ id: report.id }));
  },
  expect: resumingClientExpect('v0.3'),
  evidence: {
    'resume-cursor':
      'Its SSE reader (src/utils/process-a2a-stream.ts, parseEventBlock) keeps only the data: lines and drops every id:, and A2A.resubscribeTask (src/resources/a2a.ts) sends v0.3 tasks/resubscribe with the bare {id}, so no resume after a cut carries an afterSeq: a MUST on the v0.3 dialect.',
    'no-lost-events':
      'processA2AStream ends quietly at the cut, the script resubscribes with resubscribeTask({id}) as the docs advise until a terminal state shows, and a cursorless tasks/resubscribe opens with the task as it is, so nothing is lost.',
    'get-after-failed-resume':
      'A refused tasks/resubscribe comes back as an SSE error event, which parseEventBlock throws as a MastraClientError; the script then reads the task with getTask before it subscribes again (whether a resume is refused at all is the race above).',
    'no-poll-after-terminal':
      'The library never polls: A2A.getTask is the one tasks/get the script makes of the weather task a send had shown completed (and of the report only after a refused resume).',
    'retry-after':
      'BaseResource.request (src/resources/base.ts) retries any non-4xx failure after backoffMs (100 ms, doubling up to 1 s) and never reads Retry-After, so the refused message/send is sent again 100 ms after a 503 that asked for 1 s.',
    'unknown-state':
      'processA2AStream yields every event and reads on until the server closes the stream, so the made-up state is one more status-update before the real end.',
    'input-required-continuation':
      'sendMessage passes the message through as given, and the docs continue an input-required task with the same taskId, which the script sends with the contextId.',
  },
  notes: [
    "getA2A() is the v0.3 half of the library's two A2A clients (class A2A in src/resources/a2a.ts: message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe, tasks/pushNotificationConfig/*, agent/getAuthenticatedExtendedCard, no A2A-Version header); getA2AV1() is the v1.0 one (mastra-client-v1), on the same route.",
    'Glue: every URL is ${baseUrl}${apiPrefix}/a2a/${agentId} (JSON-RPC) or ${baseUrl}${apiPrefix}/.well-known/${agentId}/agent-card.json, a Mastra server\'s routes; no baseUrl, apiPrefix (normalizeRoutePath refuses "..") or agentId reaches both a plain agent\'s POST / and its /.well-known/agent-card.json, so the documented fetch option rewrites the two paths.',
    'sendMessage, getTask and cancelTask resolve with the raw JSON-RPC envelope, a JSON-RPC error included (tasks/get of an unknown task resolves with {error} instead of throwing); cancelTask is typed Promise<Task> all the same.',
    'A stream cut with a clean close ends sendMessageStream without an error: only the missing terminal state tells the user to resubscribe.',
  ],
};
