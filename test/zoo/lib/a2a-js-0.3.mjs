// The @a2a-js/sdk 0.3 clients, ClientFactory and the legacy A2AClient, as the zoo's journey drives them.
import { A2AClient, ClientFactory } from '@a2a-js/sdk-0.3/client';
import { journey } from './a2a-js.mjs';

const message = (text, ids = {}) => ({
  kind: 'message',
  messageId: crypto.randomUUID(),
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...ids,
});

/** The task an answer or event speaks of: a Task, a Message, or a status or artifact update. */
function task(answer) {
  const id = answer?.kind === 'task' ? answer.id : answer?.taskId;
  return { id, contextId: answer?.contextId, state: answer?.status?.state };
}

/** The legacy client answers JSON-RPC responses: the result, or the error thrown. */
function result(response) {
  if ('error' in response) throw new Error(`${response.error.code}: ${response.error.message}`);
  return response.result;
}

export async function driveFactory(url) {
  const client = await new ClientFactory().createFromUrl(url);
  await journey({
    send: (text, ids, returnImmediately = false) =>
      client.sendMessage({ message: message(text, ids), configuration: { blocking: !returnImmediately } }),
    stream: (text) => client.sendMessageStream({ message: message(text) }),
    resubscribe: (id) => client.resubscribeTask({ id }),
    get: (id) => client.getTask({ id }),
    cancel: (id) => client.cancelTask({ id }),
    task,
  });
}

export async function driveA2AClient(url) {
  const client = await A2AClient.fromCardUrl(`${url}/.well-known/agent-card.json`);
  await journey({
    send: async (text, ids, returnImmediately = false) =>
      result(
        await client.sendMessage({
          message: message(text, ids),
          configuration: { blocking: !returnImmediately },
        }),
      ),
    stream: (text) => client.sendMessageStream({ message: message(text) }),
    resubscribe: (id) => client.resubscribeTask({ id }),
    get: async (id) => result(await client.getTask({ id })),
    cancel: async (id) => result(await client.cancelTask({ id })),
    task,
  });
}
