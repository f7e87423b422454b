/**
 * The whole v1.0 surface under `/agents/explore`: the shared conformance cases, through the raw
 * REST, raw JSON-RPC and SDK drivers, pointed at the built-in agent's base URL instead of the root.
 */
import { conformanceCases } from '../bindings/conformance.cases.js';
import { jsonRpcDriver, restDriver, type DriverFactory } from '../bindings/drivers.js';
import { sdkDriver } from '../bindings/sdk-drivers.js';

const under =
  (path: string, driver: DriverFactory): DriverFactory =>
  (base) =>
    driver(`${base}${path}`);

conformanceCases('/agents/explore REST (fetch)', under('/agents/explore', restDriver));
conformanceCases('/agents/explore JSON-RPC (fetch)', under('/agents/explore', jsonRpcDriver));
// The SDK resolves `.well-known/agent-card.json` against the URL it is given, as a browser resolves
// a relative link: without the trailing slash it would look for /agents/.well-known/agent-card.json.
conformanceCases('/agents/explore @a2a-js/sdk JSONRPC', under('/agents/explore/', sdkDriver('JSONRPC')));
conformanceCases('/agents/explore @a2a-js/sdk HTTP+JSON', under('/agents/explore/', sdkDriver('HTTP+JSON')));
