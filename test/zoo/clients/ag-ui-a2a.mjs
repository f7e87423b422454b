// AG-UI's A2A integration (@ag-ui/a2a), as its README shows it: an A2AAgent around an A2AClient of
// @a2a-js/sdk 0.2 (JSON-RPC 0.3), one agent per conversation (its threadId is the A2A contextId),
// run with runAgent. Each run streams with message/stream and falls back to a blocking
// message/send when the stream throws; it has no GetTask, no cancel (its run's teardown does
// nothing) and never resubscribes.
import { A2AAgent } from '@ag-ui/a2a';
import { A2AClient } from '@a2a-js/sdk/client';
import { step } from '../lib/script.mjs';

const user = (content) => ({ id: crypto.randomUUID(), role: 'user', content });

export const client = {
  id: 'ag-ui-a2a',
  library: '@ag-ui/a2a',
  version: '0.0.6',
  api: 'A2AAgent.runAgent (@ag-ui/client 0.0.59) over A2AClient of @a2a-js/sdk 0.2.5; JSON-RPC 0.3',
  drive: async (url) => {
    // The README's client: it fetches the card (.well-known/agent.json) as it is made.
    const a2aClient = new A2AClient(url);
    const conversation = (text) => new A2AAgent({ a2aClient, initialMessages: [user(text)] });
    await step('send', () => conversation('What is the weather today?').runAgent());
    await step('stream', () => conversation('Write a long report on climate change').runAgent());
    const flight = conversation('Book me a flight');
    if (await step('ask', () => flight.runAgent())) {
      flight.addMessage(user('From Oslo to Rome'));
      await step('answer', () => flight.runAgent());
    }
  },
  expect: {
    reconnect: { 'no-lost-events': 'fail' },
    quirks: { 'unknown-state': 'pass' },
    all: { 'no-lost-events': 'fail' },
  },
  evidence: {
    'no-lost-events':
      'A2AAgent.streamMessage (src/agent.ts) reads a2aClient.sendMessageStream to its end; the SSE reader of @a2a-js/sdk 0.2.5 (A2AClient._parseA2ASseStream) ends quietly at a cut, so the run finishes (RUN_FINISHED, no error) without the rest of the task, and it never calls resubscribeTask or getTask.',
    'unknown-state':
      "convertA2AEventToAGUIEvents (src/utils.ts) ignores status states and streamMessage reads on until the server closes the stream, so under quirks it follows the task past the made-up state to its end; under all every stream is cut two events in and never resumed, which is no-lost-events' to judge.",
  },
  notes: [
    "It drops artifact text: convertA2AEventToAGUIEvents (src/utils.ts) turns artifact-update events and Task results into RAW events only, so the weather answer and the climate report never become messages (newMessages is empty for the weather; the report's message holds only its status texts, 'Writing the report...The report is complete.').",
    'It answers an input-required task with contextId = the AG-UI threadId only, never its taskId (createSendParams, src/agent.ts), so the simulator starts a new task for "From Oslo to Rome"; input-required-continuation is not exercised here because the curricula that judge it cut the flight stream (task, working) before input-required shows.',
    'All its calls are message/stream, which errors-on-call never refuses, so retry-after is not exercised; had the stream been refused, A2AAgent.run would have sent the same message again at once as a blocking message/send (fallbackToBlocking), without reading Retry-After.',
    'A stream that throws mid-way is answered by a second, blocking message/send of the same message (fallbackToBlocking), which starts the task again.',
    'Status messages of one task are merged into one AG-UI message (their ids aliased to `${taskId}:status`), so successive status texts run together.',
    'The README offers `strategy: "blocking"`, but A2AAgent reads no such option: it always streams first.',
    "A2AAgent patches globalThis.fetch for the length of every call (initializeExtension adds X-A2A-Extensions) and restores it afterwards, so concurrent calls restore out of order and other code's fetch calls carry the header meanwhile.",
    'A2AAgent.run returns a teardown that does nothing: abortRun() neither closes the stream nor cancels the task, and the library offers no GetTask or cancel, so the script has no get or cancel step.',
  ],
};
