/**
 * `a2a-sim exam -- COMMAND`: starts a simulator on a free port, runs the client command against it
 * under a curriculum's chaos, and judges the client: a verdict table, JUnit XML for CI, and an
 * exit code that fails when a MUST rule failed or the command did.
 */
import { writeFile } from 'node:fs/promises';
import { constants } from 'node:os';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { COMMANDS, EXAMPLES } from '../../config/commands.js';
import { formatDuration } from '../../lib/duration.js';
import { flushLog } from '../../lib/log.js';
import { runClientCommand, type ClientExit } from '../client-command.js';
import { openExam } from '../exam-session.js';
import { examReport, junitXml, verdictTable } from '../../verdicts/report.js';
import { withOptions } from '../options.js';

const examOptions = <T>(yargs: Argv<T>) =>
  withOptions(yargs, COMMANDS.exam).check((argv) => {
    if (!(argv['--'] as string[] | undefined)?.length)
      throw new Error('exam needs the client command after --, e.g. a2a-sim exam -- npm test');
    return true;
  });

type ExamArgs = ReturnType<typeof examOptions> extends Argv<infer A> ? A : never;

const DESCRIBE =
  'Run a client command (after --) against the simulator under chaos and judge it, rule by rule (for CI)';

export const examCommand: CommandModule<object, ExamArgs> = {
  command: 'exam',
  describe: DESCRIBE,
  // The client command follows `--`, where yargs' positionals cannot say it: the usage line does.
  builder: (yargs) =>
    examOptions(yargs)
      .usage(`$0 exam [options] -- COMMAND ARGS...\n\n${DESCRIBE}`)
      .example(...EXAMPLES.exam),
  handler: async (argv: ArgumentsCamelCase<ExamArgs>) => {
    // Only loopback clients reach the exam's simulator, and they need no token: a CI job's token
    // for a simulator served elsewhere neither stops the exam nor guards it.
    if (process.env['A2A_SIM_ADMIN_TOKEN'] !== undefined) {
      process.stderr.write(
        'a2a-sim exam: A2A_SIM_ADMIN_TOKEN is not read: the simulator listens on 127.0.0.1 only, where the control plane (/_sim) needs no token\n',
      );
    }
    const exam = await openExam({
      curricula: argv.curriculum
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
      scenarioDirs: argv.scenarioDirs,
      builtinScenarios: argv.builtinScenarios,
      seed: argv.seed,
      ...(argv.speed !== undefined && { speed: argv.speed }),
    });
    const { sim, curricula, rules } = exam;
    const command = argv['--'] as string[];
    process.stdout.write(
      `a2a-sim exam: ${curricula.map((c) => c.name).join(', ')} at ${sim.url}; running ${command.join(' ')}\n`,
    );
    const outcome = await runClientCommand(sim, command, argv.timeout);
    const { url } = sim;
    // An interrupted exam is judged at once: nobody waits for the tasks its client left.
    const clients = await exam.judge(outcome.interrupted ? 0 : argv.timeout);
    process.stdout.write(`\n${verdictTable(clients, rules)}`);
    if (argv.junit) await writeFile(argv.junit, junitXml(clients, rules, command.join(' ')));
    if (argv.report) {
      const report = examReport(
        clients,
        curricula.map((c) => c.name),
        rules,
        command.join(' '),
      );
      await writeFile(argv.report, `${JSON.stringify(report, null, 2)}\n`);
    }
    const mustFailed = clients.some((c) =>
      c.verdicts.some((v) => rules.includes(v.rule) && v.level === 'MUST' && v.outcome === 'fail'),
    );
    const failures = [
      ...commandFailures(outcome, argv.timeout),
      ...(clients.length === 0 ? [`no client called the simulator at ${url}`] : []),
      ...(mustFailed ? ['a MUST rule failed'] : []),
    ];
    process.stdout.write(failures.length ? `exam failed: ${failures.join('; ')}\n` : 'exam passed\n');
    // Stopped by a signal, the exit code says which, as a shell's does (130 for SIGINT).
    const { interrupted } = outcome;
    await flushLog();
    process.exit(interrupted ? 128 + constants.signals[interrupted] : failures.length ? 1 : 0);
  },
};

/** How the command's run fails the exam: a timeout or an interruption whatever its exit code. */
function commandFailures({ code, timedOut, interrupted }: ClientExit, timeoutMs: number): string[] {
  if (interrupted) return [`the exam was interrupted (${interrupted}) and the command stopped`];
  if (timedOut) return [`the command ran past --timeout ${formatDuration(timeoutMs)} and was stopped`];
  return code !== 0 ? [`the command exited with ${code}`] : [];
}
