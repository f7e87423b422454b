// The Vercel AI SDK's community A2A provider (a2a-ai-provider), streaming as its README shows it:
// `streamText` with the agent card's URL as the model, read to its end with consumeStream. The
// provider streams with message/stream (JSON-RPC 0.3, @a2a-js/sdk 0.3's legacy A2AClient) and
// never resubscribes: it offers no way back after a cut.
import { a2a } from 'a2a-ai-provider';
import { streamText } from 'ai';
import { step } from '../lib/script.mjs';

export const client = {
  id: 'a2a-ai-provider-stream',
  library: 'a2a-ai-provider',
  version: '0.5.0-alpha.1',
  api: 'streamText (ai 5.0.277), a2a(cardUrl), consumeStream; JSON-RPC 0.3 message/stream',
  drive: async (url) => {
    const model = a2a(`${url}/.well-known/agent-card.json`);
    await step('stream', async () => {
      let failure;
      const result = streamText({
        model,
        prompt: 'Write a long report on climate change',
        onError: ({ error }) => (failure = error),
      });
      await result.consumeStream();
      if (failure) throw failure;
      return { text: await result.text, finishReason: await result.finishReason };
    });
  },
  expect: {
    reconnect: { 'no-lost-events': 'fail' },
    quirks: { 'unknown-state': 'pass' },
    all: { 'no-lost-events': 'fail' },
  },
  evidence: {
    'no-lost-events':
      'A2aChatLanguageModel.doStream (src/a2a-chat-language-model.ts) reads client.sendMessageStream to its end; the SSE reader (@a2a-js/sdk 0.3.14, parseSseStream) ends quietly at a cut, and streamText then finishes as if the report were done (finishReason "stop", set by the opening Task event, and no text at all): the provider never calls resubscribeTask or GetTask.',
    'unknown-state':
      "doStream takes no state for the end: it reads the stream until the server closes it (mapFinishReason is applied only to a status-update marked final), so under quirks it reads past the made-up state to the real completed one; under all the stream is cut two events in and never resumed, which is no-lost-events' to judge.",
  },
  notes: [
    'A cut stream finishes normally (no error) with finishReason "stop": doStream sets "stop" on the opening Task event and only a final status-update changes it, so a user sees an empty or short report and no failure.',
    'It drops status messages: doStream turns artifact-update parts, an opening Task\'s status message and artifacts, and a Message into text, but not the message of a status-update, so the flight question ("I need more details...") and a failure\'s explanation never reach the user; the failed task does end with finishReason "error" (mapFinishReason), unlike generateText, whose doGenerate always says "stop".',
    'doStream ignores the abortSignal of streamText (never passed to the A2A client) and the provider offers no cancel or GetTask, so the script has no get or cancel step.',
    'Its only call is message/stream, which errors-on-call never refuses, so retry-after is not exercised (the provider would not retry: doStream throws a plain Error, which the AI SDK does not retry).',
    'It logs the whole agent card and every stream event to stdout with console.log.',
  ],
};
