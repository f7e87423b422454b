#!/usr/bin/env node
/** The `a2a-sim` command line: yargs over the programmatic API. */
// First: how V8 manages the heap is set before the simulator makes anything (see the module).
import './heap-tuning.js';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { VERSION } from '../config.js';
import { skipHelpCache } from './help-cache.js';
import { unknownVariables } from './options.js';
import { ALL_ROWS } from '../config/commands.js';
import { PortInUseError } from '../lib/listen-error.js';
import { commandOf, unknownWords } from './typos.js';
import { listCommand } from './commands/list.js';
import { examCommand } from './commands/exam.js';
import { recordCommand } from './commands/record.js';
import { replayCommand } from './commands/replay.js';
import { schemaCommand } from './commands/schema.js';
import { serveCommand } from './commands/serve.js';
import { validateCommand } from './commands/validate.js';

// `a2a-sim list | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/** A variable that names no option is refused by its name, whichever command runs. */
function refuseUnknownVariables(): true {
  const unknown = unknownVariables();
  if (unknown.length) {
    throw new Error(
      unknown
        .map(
          (name) =>
            `Unknown environment variable: ${name} (A2A_SIM_* variables set options; this one names none)`,
        )
        .join('\n'),
    );
  }
  return true;
}

/**
 * What went wrong, and what to do: a word that names nothing gets the nearest name, a busy port the
 * flag that moves it; the rest say where the options are.
 */
function failure(message: string | undefined, error: Error | undefined): string {
  if (error instanceof PortInUseError) return portInUse(error);
  const typos = error ? [] : unknownWords(hideBin(process.argv));
  const command = commandOf(hideBin(process.argv));
  const help = `Run "a2a-sim ${command === 'serve' ? '' : `${command} `}--help" for the options.`;
  return `${typos.length ? typos.join('\n') : (error?.message ?? message)}\n${help}`;
}

/** A busy port, with the flag that chose it: "…:41241 is in use (--port). Choose another…". */
function portInUse({ host, port, option }: PortInUseError): string {
  const flag = `--${ALL_ROWS.find((row) => row.name === option)?.flag ?? option}`;
  return `Failed to listen on ${host}:${port}: the port is in use (${flag}), perhaps by another a2a-sim. Choose another with ${flag} PORT, or ${flag} 0 for any free port.`;
}

const cli = yargs(hideBin(process.argv));
skipHelpCache(cli);
await cli
  .scriptName('a2a-sim')
  .usage(
    '$0 [command] [options]\n\nA scripted mock A2A agent. Options can also be set as A2A_SIM_<OPTION> environment variables.',
  )
  // `record … -- node client.mjs`: what follows `--` is the client to run, not our options.
  .parserConfiguration({ 'populate--': true })
  .command(serveCommand)
  .command(validateCommand)
  .command(listCommand)
  .command(schemaCommand)
  .command(replayCommand)
  .command(recordCommand)
  .command(examCommand)
  .example('$0 --port 8080 --seed demo', 'Serve the built-in scenarios on port 8080')
  .example('$0 validate scenarios/*.yaml', 'Check scenario files')
  .example('$0 replay "Book me a flight" --then "From Oslo to Rome"', 'Print what a conversation would play')
  .example('$0 record --target http://localhost:9999 --out recorded', 'Record a real agent as scenario files')
  .example('$0 --proxy http://localhost:9999', 'Play your scenarios, pass the rest to a real agent')
  .example('$0 exam --junit verdicts.xml -- npm run e2e', 'Judge a client under chaos, rule by rule, in CI')
  .strict()
  .check(refuseUnknownVariables)
  // A mistake in the command line or a setting ends the run with a message, not a stack trace.
  .fail((message, error) => {
    process.stderr.write(`a2a-sim: ${failure(message, error)}\n`);
    process.exit(2);
  })
  .version(VERSION)
  .help()
  .alias('h', 'help')
  .wrap(Math.min(110, process.stdout.columns || 110))
  .parseAsync();
