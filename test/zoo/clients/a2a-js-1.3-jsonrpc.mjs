// The official SDK's current line: ClientFactory over JSON-RPC.
import { sdkEvidence } from '../lib/a2a-js.mjs';
import { resumingClientExpect } from '../lib/resuming-client.mjs';

export const client = {
  id: 'a2a-js-1.3-jsonrpc',
  library: '@a2a-js/sdk',
  version: '1.3.0',
  api: 'ClientFactory, JSON-RPC',
  load: () => import('../lib/a2a-js-1.3.mjs'),
  drive: async (url) => (await import('../lib/a2a-js-1.3.mjs')).driveFactory(url, 'jsonrpc'),
  expect: resumingClientExpect('v1.0'),
  evidence: sdkEvidence('1.3', 'jsonrpc'),
};
