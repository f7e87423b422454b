// The @a2a-js/sdk 1.3 ClientFactory client on one transport, as the zoo's journey drives it.
import { TaskState } from '@a2a-js/sdk-1.3';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk-1.3/client';
import { journey, stateName } from './a2a-js.mjs';

const message = (text, ids = {}) => ({
  messageId: crypto.randomUUID(),
  role: 1, // ROLE_USER
  parts: [{ content: { $case: 'text', value: text } }],
  ...ids,
});

/** The task an answer or event speaks of: {payload: {$case, value}} or a Task or Message. */
function task(answer) {
  const value = answer?.payload?.value ?? answer;
  const id = value?.taskId || (value?.status ? value.id : undefined);
  const status = value?.status;
  return { id, contextId: value?.contextId, state: status ? stateName(TaskState[status.state]) : undefined };
}

export async function driveFactory(url, transport) {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [transport === 'rest' ? new RestTransportFactory() : new JsonRpcTransportFactory()],
    }),
  );
  const client = await factory.createFromUrl(url);
  await journey({
    send: (text, ids, returnImmediately = false) =>
      client.sendMessage({ message: message(text, ids), configuration: { returnImmediately } }),
    stream: (text) => client.sendMessageStream({ message: message(text) }),
    resubscribe: (id) => client.resubscribeTask({ id }),
    get: (id) => client.getTask({ id }),
    cancel: (id) => client.cancelTask({ id }),
    task,
  });
}
