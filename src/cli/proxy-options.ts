/**
 * The flags that put the simulator in front of a real agent: `serve --proxy` stands in front of it,
 * `record --target` records it. Both reach it the same way (binding, timeout, headers).
 */
import type { Argv } from 'yargs';
import { DEFAULTS, type ProxyOptions } from '../config.js';
import { formatDuration } from '../lib/duration.js';
import { UPSTREAM_BINDINGS } from '../upstream/agent.js';
import { durationValue, headerValues } from './values.js';

/** How the agent is reached, whichever command reaches it. */
export function withUpstreamOptions<T>(yargs: Argv<T>, group: string) {
  return yargs
    .option('agent-code', {
      type: 'string',
      requiresArg: true,
      describe:
        'The agent_code of the agent behind a workspace gateway (with --proxy-gateway / --target-gateway)',
      group,
    })
    .option('proxy-binding', {
      type: 'string',
      requiresArg: true,
      choices: UPSTREAM_BINDINGS,
      default: 'auto' as (typeof UPSTREAM_BINDINGS)[number],
      describe: "Which of the agent's interfaces to speak (auto: HTTP+JSON, then JSON-RPC 1.0, then 0.3)",
      group,
    })
    .option('proxy-timeout', {
      requiresArg: true,
      coerce: durationValue('--proxy-timeout', { min: 1 }),
      default: formatDuration(DEFAULTS.proxy.timeout),
      describe: 'How long the agent may take to start answering',
      group,
    })
    .option('proxy-header', {
      type: 'string',
      array: true,
      requiresArg: true,
      coerce: headerValues('--proxy-header'),
      describe: "A header sent with every call to the agent, e.g. 'Authorization: Bearer abc' (repeatable)",
      group,
    });
}

export function withProxyOptions<T>(yargs: Argv<T>) {
  return withUpstreamOptions(
    yargs
      .option('proxy', {
        type: 'string',
        requiresArg: true,
        describe: 'A real A2A agent (base or card URL): messages no scenario matches go to it',
        group: 'Proxy:',
      })
      .option('proxy-gateway', {
        type: 'string',
        requiresArg: true,
        describe: 'Or a workspace gateway endpoint (…/agents/a2a), with --agent-code',
        group: 'Proxy:',
      })
      .option('proxy-all', {
        type: 'boolean',
        default: false,
        describe: 'Send every message to the agent, not only those no scenario matches',
        group: 'Proxy:',
      }),
    'Proxy:',
  );
}

interface UpstreamArgs {
  agentCode?: string | undefined;
  proxyBinding: NonNullable<ProxyOptions['binding']>;
  proxyTimeout: number;
  proxyHeader?: Record<string, string> | undefined;
}

/** The `proxy` option for an agent at `url`, or behind the gateway at `gateway`. */
export function proxyOption(
  args: UpstreamArgs,
  target: { url?: string | undefined; gateway?: string | undefined; all: boolean },
): ProxyOptions {
  return {
    ...(target.url !== undefined && { url: target.url }),
    ...(target.gateway !== undefined && { gateway: target.gateway }),
    ...(args.agentCode !== undefined && { agentCode: args.agentCode }),
    all: target.all,
    binding: args.proxyBinding,
    timeout: args.proxyTimeout,
    ...(args.proxyHeader && { headers: args.proxyHeader }),
  };
}
