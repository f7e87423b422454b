// The official SDK's 0.3 line: ClientFactory, which picks the card's preferred transport.
import { sdkEvidence } from '../lib/a2a-js.mjs';
import { resumingClientExpect } from '../lib/resuming-client.mjs';

export const client = {
  id: 'a2a-js-0.3-factory',
  library: '@a2a-js/sdk',
  version: '0.3.14',
  api: "ClientFactory (the card's preferred transport)",
  load: () => import('../lib/a2a-js-0.3.mjs'),
  drive: async (url) => (await import('../lib/a2a-js-0.3.mjs')).driveFactory(url),
  expect: resumingClientExpect('v0.3'),
  evidence: sdkEvidence('0.3', 'rest'),
};
