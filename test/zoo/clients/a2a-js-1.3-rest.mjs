// The official SDK's current line: ClientFactory over HTTP+JSON.
import { sdkEvidence } from '../lib/a2a-js.mjs';
import { resumingClientExpect } from '../lib/resuming-client.mjs';

export const client = {
  id: 'a2a-js-1.3-rest',
  library: '@a2a-js/sdk',
  version: '1.3.0',
  api: 'ClientFactory, HTTP+JSON',
  load: () => import('../lib/a2a-js-1.3.mjs'),
  drive: async (url) => (await import('../lib/a2a-js-1.3.mjs')).driveFactory(url, 'rest'),
  expect: resumingClientExpect('v1.0'),
  evidence: sdkEvidence('1.3', 'rest'),
};
