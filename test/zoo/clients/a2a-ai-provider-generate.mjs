// The Vercel AI SDK's community A2A provider (a2a-ai-provider), as its README shows it: the model
// is the agent card's URL, `generateText` sends the last message of the prompt with message/send
// (JSON-RPC 0.3, through @a2a-js/sdk 0.3's legacy A2AClient), and a conversation goes on under
// the `contextId` passed in providerOptions.a2a. It has no GetTask, no cancel and no resubscribe.
import { a2a } from 'a2a-ai-provider';
import { generateText } from 'ai';
import { step } from '../lib/script.mjs';

export const client = {
  id: 'a2a-ai-provider-generate',
  library: 'a2a-ai-provider',
  version: '0.5.0-alpha.1',
  api: 'generateText (ai 5.0.277), a2a(cardUrl), providerOptions.a2a.contextId; JSON-RPC 0.3',
  drive: async (url) => {
    const model = a2a(`${url}/.well-known/agent-card.json`);
    await step('send', () => generateText({ model, prompt: 'What is the weather today?' }));
    // One conversation, as the README keeps one: its chat id is the A2A contextId. The follow-up
    // sends the chat so far; the provider passes on only its last message, with that contextId.
    const chatId = crypto.randomUUID();
    const providerOptions = { a2a: { contextId: chatId } };
    const messages = [{ role: 'user', content: 'Book me a flight' }];
    const asked = await step('ask', () => generateText({ model, messages, providerOptions }));
    if (asked) {
      messages.push(...asked.response.messages, { role: 'user', content: 'From Oslo to Rome' });
      await step('answer', () => generateText({ model, messages, providerOptions }));
    }
  },
  expect: {
    reconnect: { 'input-required-continuation': 'fail' },
    polling: { 'card-revalidation': 'fail' },
    errors: { 'retry-after': 'fail' },
    quirks: {},
    'expired-resume': {},
    all: { 'retry-after': 'fail', 'input-required-continuation': 'fail', 'card-revalidation': 'fail' },
  },
  evidence: {
    'input-required-continuation':
      'A2aChatLanguageModel.doGenerate (src/a2a-chat-language-model.ts, dist/index.js) sends the last prompt message with only providerOptions.a2a.contextId and never a taskId (the task id it got is not even kept), so the answer to the input-required flight starts a new task (a task is continued by its taskId; by contextId alone only through the gateway).',
    'card-revalidation':
      'doGenerate calls A2AClient.fromCardUrl for every generateText, and fromCardUrl (@a2a-js/sdk 0.3.14, src/client/client.ts) fetches the card afresh with a plain fetch, no If-None-Match or If-Modified-Since and no cache.',
    'retry-after':
      'The 503 comes back from the JSON-RPC transport (JsonRpcTransport._sendRpcRequest) as an error response, which doGenerate throws as a plain Error; the AI SDK retries only an APICallError marked retryable (ai, _retryWithExponentialBackoff), so nothing waits and the next generateText fetches the card at once.',
  },
  notes: [
    'doGenerate returns finishReason "stop" whatever the task did (hard-coded; mapFinishReason is used by doStream only): "Please fail this task" comes back as finishReason "stop" with the failure message as its text, and an input-required task reads as a finished answer.',
    'It continues a conversation with contextId only (providerOptions.a2a.contextId) and has no way to send a taskId; the task id is in response.body only.',
    'doGenerate ignores the abortSignal of generateText (it is never passed to the A2A client), and the provider offers no GetTask or cancel, so the script has no get or cancel step.',
    'It logs every request to stdout with console.log ("sendParams").',
  ],
};
