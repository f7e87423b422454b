// @mastra/client-js as its docs show it (dist/docs/references/docs-connections-a2a.md, "Use the
// v1.0 client"): MastraClient's getA2AV1(agentId), the A2A v1.0 JSON-RPC client (SendMessage,
// SendStreamingMessage, GetTask, CancelTask, SubscribeToTask, each with `A2A-Version: 1.0`), its
// requests and answers built with the codecs of @mastra/core/a2a/v1 (@a2a-js/sdk 1.0.1), and
// resubscribeTask when a stream disconnects while the task still runs.
//
// Races: a resume that comes after the report's last event (100 ms after the chunk before it at
// --speed 10) finds the task ended and is refused, and one later than 50 ms after the cut is refused
// under expired-resume; a refused resubscribe throws, and the script reads the task with getTask
// before it subscribes again. Whether any resume is refused depends on how fast the client comes back.
import { resumingClientExpect } from '../lib/resuming-client.mjs';
import { step } from '../lib/script.mjs';

const AGENT = 'sim';
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

const load = () => Promise.all([import('@mastra/client-js'), import('@mastra/core/a2a/v1')]);

export const client = {
  id: 'mastra-client-v1',
  library: '@mastra/client-js',
  version: '1.47.0',
  api: 'MastraClient.getA2AV1 (A2A v1.0 JSON-RPC), resubscribeTask after a cut; its fetch option maps the Mastra routes',
  load,
  drive: async (url) => {
    const [{ MastraClient }, v1] = await load();
    const { CancelTaskRequest, GetTaskRequest, SendMessageRequest, SubscribeToTaskRequest, TaskState } = v1;
    const TERMINAL = new Set([
      TaskState.TASK_STATE_COMPLETED,
      TaskState.TASK_STATE_FAILED,
      TaskState.TASK_STATE_CANCELED,
      TaskState.TASK_STATE_REJECTED,
    ]);
    const PAUSED = new Set([TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED]);

    const request = (text, ids = {}, configuration) =>
      SendMessageRequest.fromJSON({
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...ids },
        ...(configuration && { configuration }),
      });
    /** What a decoded StreamResponse or SendMessageResponse ({payload: {$case, value}}), or a Task, shows. */
    const seen = (answer, task) => {
      const value = answer?.payload?.value ?? answer;
      if (!value) return;
      task.id ||= answer?.payload?.$case === 'task' || !answer?.payload ? value.id : value.taskId;
      task.contextId ||= value.contextId;
      if (value.status) task.state = value.status.state;
    };
    const send = async (req) => {
      const task = {};
      seen(await a2a.sendMessage(req), task);
      return task;
    };
    /** Streams a message; when the stream breaks before the task ends, resubscribes as the docs show. */
    const streamToEnd = async (text) => {
      const task = {};
      let events = a2a.sendMessageStream(request(text));
      for (let resumes = 0; resumes <= RESUMES; resumes++) {
        try {
          for await (const event of events) seen(event, task);
        } catch (error) {
          // A refused resubscribe (the task ended, or its events expired) throws: read the task first.
          if (!task.id) throw error;
          seen(await a2a.getTask(GetTaskRequest.fromJSON({ id: task.id })), task);
        }
        if (!task.id || TERMINAL.has(task.state) || PAUSED.has(task.state)) return task;
        events = a2a.resubscribeTask(SubscribeToTaskRequest.fromJSON({ id: task.id }));
      }
      return task;
    };

    const mastra = new MastraClient({ baseUrl: url, apiPrefix: '', fetch: toPlainAgent(url) });
    const a2a = mastra.getA2AV1(AGENT);
    await step('card', () => a2a.getAgentCard());
    const weather = await step('send', () => send(request('What is the weather today?')));
    await step('stream', () => streamToEnd('Write a long report on climate change'));
    const flight = await step('ask', () => send(request('Book me a flight')));
    if (flight?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      await step('answer', () =>
        send(request('From Oslo to Rome', { taskId: flight.id, contextId: flight.contextId })),
      );
    }
    if (weather?.id) await step('get', () => a2a.getTask(GetTaskRequest.fromJSON({ id: weather.id })));
    const report = await step('start', () =>
      send(request('Write a long report on climate change', {}, { returnImmediately: true })),
    );
    if (report?.id) await step('cancel', () => a2a.cancelTask(CancelTaskRequest.fromJSON({ id: report.id })));
  },
  expect: resumingClientExpect('v1.0'),
  evidence: {
    'resume-cursor':
      'A2AV1.resubscribeTask (src/resources/a2a.ts) sends SubscribeToTask with the SubscribeToTaskRequest codec, {tenant, id} and no cursor, and its SSE reader (processA2AStream) drops every id: line: advice on the v1.0 binding.',
    'no-lost-events':
      'processA2AStream ends quietly at the cut, the script resubscribes with resubscribeTask as the docs advise until a terminal state shows, and SubscribeToTask opens with the task as it is, so nothing is lost.',
    'get-after-failed-resume':
      "A refused SubscribeToTask answers a JSON-RPC error, which processA2AStream's parseEventBlock throws as a MastraClientError; the script then reads the task with getTask before it subscribes again (whether a resume is refused at all is the race above).",
    'no-poll-after-terminal':
      'The library never polls: A2AV1.getTask is the one GetTask the script makes of the weather task a send had shown completed (and of the report only after a refused resume).',
    'retry-after':
      'BaseResource.request (src/resources/base.ts), under every A2AV1 call, retries any non-4xx failure after backoffMs (100 ms, doubling up to 1 s) and reads neither Retry-After nor the RetryInfo detail, so the refused SendMessage is sent again 100 ms after a 503 that asked for 1 s.',
    'unknown-state':
      'StreamResponse.fromJSON (@a2a-js/sdk 1.0.1 through @mastra/core/a2a/v1) decodes the made-up state as TaskState.UNRECOGNIZED (-1) without throwing, and processA2AStream reads on to the real end.',
    'input-required-continuation':
      'sendMessage sends the SendMessageRequest as built, and the script answers with the taskId and contextId of the task that asked, as the docs continue an input-required task.',
  },
  notes: [
    "getA2AV1() is the v1.0 half of the library's two A2A clients (class A2AV1 in src/resources/a2a.ts: SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask, SubscribeToTask and the *TaskPushNotificationConfig(s) methods, each with A2A-Version: 1.0, on the same JSON-RPC route as getA2A()); requests and answers go through @a2a-js/sdk 1.0.1's codecs (toJSON/fromJSON), so states arrive as numbers.",
    "Glue: every URL is ${baseUrl}${apiPrefix}/a2a/${agentId} (JSON-RPC) or ${baseUrl}${apiPrefix}/.well-known/${agentId}/agent-card.json, a Mastra server's routes; the documented fetch option rewrites them to a plain agent's POST / and /.well-known/agent-card.json.",
    'A stream cut with a clean close ends sendMessageStream without an error: only the missing terminal state tells the user to resubscribe.',
  ],
};
