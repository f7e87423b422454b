/**
 * `a2a-sim replay TEXT [--then TEXT...] [--seed S]`: what the simulator would answer, printed as a
 * timeline, without a server. The root agent plays the message on a virtual clock exactly as
 * `serve` would with the same seed (the same ids, content and timings), then each follow-up.
 */
import type { Argv, CommandModule } from 'yargs';
import { A2AError } from '../../domain/errors.js';
import { ROOT_SCOPE } from '../../domain/scope.js';
import type { LoggedEvent, Message, Part, SendResult } from '../../domain/types.js';
import { composeAgents, createShared } from '../../compose/agents.js';
import { loadCatalog } from '../../compose/catalog.js';
import { resolveSettings } from '../../compose/settings.js';
import { COMMANDS, EXAMPLES } from '../../config/commands.js';
import { VirtualClock } from '../../lib/clock.js';
import { withOptions } from '../options.js';

const replayOptions = <T>(yargs: Argv<T>) =>
  withOptions(yargs, COMMANDS.replay).positional('text', {
    type: 'string',
    describe: 'The user message',
    demandOption: true,
  });

type ReplayArgs = ReturnType<typeof replayOptions> extends Argv<infer A> ? A : never;

export const replayCommand: CommandModule<object, ReplayArgs> = {
  command: 'replay <text>',
  describe: 'Print the timeline the simulator would play for a message (and follow-ups), without a server',
  builder: (yargs) => replayOptions(yargs).example(...EXAMPLES.replay),
  handler: async (argv) => {
    const clock = new VirtualClock();
    const settings = resolveSettings({
      clock,
      seed: argv.seed,
      ...(argv.startTime !== undefined && { startTime: argv.startTime }),
      scenarioDirs: argv.scenarioDirs,
      builtinScenarios: argv.builtinScenarios,
      logLevel: 'silent',
      push: { enabled: false },
    });
    const catalog = await loadCatalog(settings);
    const shared = createShared(settings, catalog.chaosProfiles);
    const { root } = composeAgents(settings, catalog, shared);
    const start = clock.now();
    const lines: string[] = [];
    let taskId: string | undefined;
    let refused: string | undefined;
    for (const [turn, text] of [argv.text, ...argv.then].entries()) {
      const message: Message = {
        messageId: `replay-${turn + 1}`,
        role: 'user',
        parts: [{ kind: 'text', text }],
        ...(taskId !== undefined && { taskId }),
      };
      let result: SendResult;
      try {
        result = await settle(clock, root.service.send({ message }, { scope: ROOT_SCOPE }));
      } catch (error) {
        if (!(error instanceof A2AError)) throw error;
        // A scenario that answers with an error: that is the timeline, not a refusal.
        if (error.details.metadata?.['scenario'] !== undefined) {
          lines.push(`${at(clock.now() - start)}  error          ${error.type}: ${error.message}`);
          break;
        }
        // A first message is refused for want of a scenario: say which there are.
        const loaded = turn === 0 ? root.service.scenarios.list().map((s) => s.id) : undefined;
        const skipped = [...new Set(catalog.issues.map((issue) => issue.file))];
        refused = refusal(text, error, loaded, skipped);
        break;
      }
      if (result.kind === 'message') {
        lines.push(`${at(clock.now() - start)}  reply          ${partsText(result.message.parts)}`);
        break;
      }
      taskId = result.task.id;
    }
    const events = taskId === undefined ? [] : shared.store.get(taskId, ROOT_SCOPE)!.log.readAfter(0);
    if (argv.json) process.stdout.write(`${JSON.stringify(events, null, 2)}\n`);
    else process.stdout.write([...events.map((e) => describe(e, start)), ...lines, ''].join('\n'));
    // What played before a refused follow-up is printed first; the refusal ends the run as a bad value does.
    if (refused !== undefined) {
      process.stderr.write(`a2a-sim: ${refused}\n`);
      process.exitCode = 2;
    }
  },
};

/**
 * Why the simulator refused a message, on one line: "Failed to replay "TEXT": no scenario matches
 * this message …; loaded: a, b." A scenario file skipped for its problems is named, as `serve`
 * would have logged it.
 */
function refusal(text: string, error: A2AError, loaded: string[] | undefined, skipped: string[]): string {
  const reasons = error.details.fieldViolations?.map((v) => v.description) ?? [error.message];
  const why = reasons.join('; ').replace(/\.$/, '');
  return [
    `Failed to replay ${JSON.stringify(text)}: ${why}`,
    ...(loaded && !why.includes('loaded:') ? [`loaded: ${loaded.join(', ') || '(none)'}`] : []),
    ...(loaded && skipped.length
      ? [`skipped for their problems (see a2a-sim validate): ${skipped.join(', ')}`]
      : []),
  ]
    .join('; ')
    .concat('.');
}

/** Runs the virtual clock until `work` settles: every timer fires in order, none waits. */
async function settle(clock: VirtualClock, work: Promise<SendResult>): Promise<SendResult> {
  let done = false;
  // Settled either way: a refusal is the caller's to report, not an unhandled rejection.
  const settled = () => (done = true);
  work.then(settled, settled);
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    const next = clock.nextAt();
    if (!done && next !== undefined) clock.advance(Math.max(0, next - clock.now()));
  }
  return work;
}

function describe(logged: LoggedEvent, start: number): string {
  const { event } = logged;
  const head = `${at(logged.atMs - start)}  #${logged.seq}`.padEnd(14);
  switch (event.kind) {
    case 'task':
      return `${head}task           ${event.task.id} in context ${event.task.contextId}`;
    case 'status': {
      const said = event.status.message ? `  ${partsText(event.status.message.parts)}` : '';
      return `${head}${event.status.state.padEnd(15)}${said}`;
    }
    case 'artifact': {
      const { name, artifactId, parts } = event.artifact;
      const flags = `${event.append ? ' append' : ''}${event.lastChunk ? ' last' : ''}`;
      return `${head}artifact       ${name ?? artifactId}${flags}  ${partsText(parts)}`;
    }
  }
}

function partsText(parts: readonly Part[]): string {
  return parts
    .map((p) =>
      p.kind === 'text' ? JSON.stringify(p.text) : p.kind === 'data' ? JSON.stringify(p.data) : `[${p.kind}]`,
    )
    .join(' ');
}

function at(ms: number): string {
  return `+${(ms / 1000).toFixed(3)}s`;
}
