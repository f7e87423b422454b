// The official SDK's 0.3 line: the legacy A2AClient (JSON-RPC only).
import { sdkEvidence } from '../lib/a2a-js.mjs';
import { resumingClientExpect } from '../lib/resuming-client.mjs';

export const client = {
  id: 'a2a-js-0.3-a2aclient',
  library: '@a2a-js/sdk',
  version: '0.3.14',
  api: 'A2AClient (legacy), JSON-RPC',
  load: () => import('../lib/a2a-js-0.3.mjs'),
  drive: async (url) => (await import('../lib/a2a-js-0.3.mjs')).driveA2AClient(url),
  expect: resumingClientExpect('v0.3'),
  evidence: sdkEvidence('0.3', 'jsonrpc'),
};
