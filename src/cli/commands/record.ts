/**
 * `a2a-sim record --target URL`: serves the simulator's surface in front of a real agent, passes
 * every request on, and writes what went through as scenario files and an agent file when the
 * client is done: Ctrl-C, `POST /_sim/record/stop`, or the end of the command given after `--`.
 */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { COMMANDS, EXAMPLES } from '../../config/commands.js';
import { createSimulator, VERSION, type RecordingResult } from '../../index.js';
import { runClientCommand } from '../client-command.js';
import { flushLog } from '../../lib/log.js';
import { checkServerArgs, simulatorOptions, withOptions } from '../options.js';

const recordOptions = <T>(yargs: Argv<T>) =>
  withOptions(yargs, COMMANDS.record)
    .check(checkServerArgs)
    .check((argv) => {
      if ((argv.target === undefined) === (argv.targetGateway === undefined)) {
        throw new Error('record needs --target URL (the agent) or --target-gateway URL --agent-code CODE');
      }
      return true;
    });

type RecordArgs = ReturnType<typeof recordOptions> extends Argv<infer A> ? A : never;

const DESCRIBE = "Record a real agent's conversations as scenario files, in front of it";

export const recordCommand: CommandModule<object, RecordArgs> = {
  command: 'record',
  describe: DESCRIBE,
  // The client command follows `--`: as a positional, `[-- command...]` took any stray word too.
  builder: (yargs) =>
    recordOptions(yargs)
      .usage(`$0 record [options] [-- COMMAND ARGS...]\n\n${DESCRIBE}`)
      .example(...EXAMPLES.record),
  handler: async (argv: ArgumentsCamelCase<RecordArgs>) => {
    const { proxy, record, ...options } = simulatorOptions(argv, COMMANDS.record);
    const sim = await createSimulator({
      ...options,
      proxy: { ...proxy, all: true },
      record: { ...record, out: argv.out },
    });
    const command = (argv['--'] as string[] | undefined) ?? [];
    process.stdout.write(
      [
        `a2a-sim ${VERSION} listening on ${sim.url}`,
        `  recording   ${argv.target ?? `${argv.targetGateway} (agent_code ${argv.agentCode})`}: every request goes to it (REST, JSON-RPC 1.0 and 0.3 here)`,
        `  writing to  ${argv.out}/ when ${command.length ? 'the command ends' : `you press Ctrl-C or POST ${sim.url}/_sim/record/stop`}`,
        '',
      ].join('\n'),
    );
    let finishing = false;
    const finish = async (code: number) => {
      finishing = true;
      const result = await sim.recording!.stop();
      report(result);
      await sim.close();
      await flushLog();
      process.exit(code);
    };
    // Stopped through the admin route: its answer goes out first, then the command ends.
    sim.recording!.onStop((result) => {
      if (finishing) return;
      report(result);
      setImmediate(
        () =>
          void sim
            .close()
            .then(flushLog)
            .then(() => process.exit(0)),
      );
    });
    // The recording ends with the client, and the run with its exit code.
    if (command.length) return void runClientCommand(sim, command).then(({ code }) => finish(code));
    process.once('SIGINT', () => void finish(0));
    process.once('SIGTERM', () => void finish(0));
  },
};

function report({ files, conversations, leftOut, har }: RecordingResult): void {
  process.stdout.write(
    `Recorded ${conversations} conversation(s) into ${files.length - 1} scenario(s) and an agent file:\n${files.map((f) => `  ${f}`).join('\n')}\n${har ? `The calls as HAR: ${har}\n` : ''}`,
  );
  if (leftOut > 0) {
    process.stderr.write(
      `${leftOut} conversation(s) left out: the recording held its most (--max-recording-bytes). Record a shorter session, or raise it.\n`,
    );
  }
}
