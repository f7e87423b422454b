/** Each command's `--help`: its usage, its own options before those it shares with serve, an example. */
import { describe, expect, it } from 'vitest';
import { EXAMPLES } from '../../src/config/commands.js';
import { run } from '../helpers/cli.js';

describe.concurrent('a2a-sim COMMAND --help', () => {
  it('shows record its own options first, --target among its first lines, and an example', async () => {
    const { code, stdout } = await run(['record', '--help']);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('a2a-sim record [options] [-- COMMAND ARGS...]');
    expect(lines.findIndex((line) => line.includes('--target '))).toBeLessThan(10);
    expect(lines.findIndex((line) => line.includes('--target '))).toBeLessThan(
      lines.findIndex((line) => line.includes('--port ')),
    );
    expect(stdout).toContain('Examples:\n  a2a-sim record --target http://localhost:9999 ');
  });

  it.each([
    ['exam', 'a2a-sim exam [options] -- COMMAND ARGS...', '--curriculum'],
    ['list', 'a2a-sim list', '--json'],
    ['replay', 'a2a-sim replay <text>', '--then'],
  ])(
    'shows %s its usage, its own options before the shared ones, and an example',
    async (command, usage, own) => {
      const { code, stdout } = await run([command, '--help']);
      expect(code).toBe(0);
      expect(stdout.split('\n')[0]).toBe(usage);
      expect(stdout.indexOf(own)).toBeGreaterThan(0);
      expect(stdout.indexOf(own)).toBeLessThan(stdout.indexOf('--scenario-dirs'));
      expect(stdout).toContain(`Examples:\n  a2a-sim ${command} `);
    },
  );
});

describe('the examples', () => {
  it.each(Object.entries(EXAMPLES))(
    "fit %s's on one line of --help (yargs wraps past 55 characters)",
    (_, [line]) => {
      expect(line.replace('$0', 'a2a-sim').length).toBeLessThanOrEqual(55);
    },
  );
});
