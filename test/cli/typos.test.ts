/**
 * A slip in a command line gets the name it was meant to be. The words are judged in-process; the
 * built CLI shows the message and the exit code as a user meets them.
 */
import { describe, expect, it } from 'vitest';
import { unknownWords } from '../../src/cli/typos.js';
import { serveRefused } from '../helpers/cli.js';

describe('unknownWords', () => {
  it.each([
    [['serve', '--prot', '4000'], ['Unknown option --prot. Did you mean --port?']],
    [['--prot=4000'], ['Unknown option --prot. Did you mean --port?']],
    [['valdate', 'x.yaml'], ['Unknown command valdate. Did you mean validate?']],
    [
      ['lst', '--jsn'],
      ['Unknown command lst. Did you mean list?', 'Unknown option --jsn. Did you mean --json?'],
    ],
    [['serve', '--sped', '2'], ['Unknown option --sped. Did you mean --speed?']],
    [['serve', '--no-pus'], ['Unknown option --no-pus. Did you mean --no-push?']],
    [['exam', '--junt', 'x.xml', '--', 'npm', '--tset'], ['Unknown option --junt. Did you mean --junit?']],
    [['serve', '--target', 'http://a'], ['Unknown option --target. Did you mean a2a-sim record --target?']],
    [
      ['frobnicate'],
      [expect.stringMatching(/^Unknown command frobnicate\. The commands are serve, .*validate\.$/)],
    ],
    [['serve', '-z'], ['Unknown option -z.']],
  ])('names what %j meant', (args, lines) => {
    expect(unknownWords(args)).toEqual(lines);
  });

  it.each([
    ['serve', '--port', '0', '--no-push', '--scenarios', 'x', '-s', 'y', '--speed', '-1', '--help'],
    ['record', '--target', 'http://a', '-o', 'out', '--', 'node', '--whatever'],
    ['replay', 'Book me a flight', '--then', 'From Oslo', '--startTime=2030-01-01T00:00:00Z'],
    ['--port', '70000'],
  ])('finds every word of %j known (the refusal is about something else)', (...args) => {
    expect(unknownWords(args)).toEqual([]);
  });
});

describe.concurrent('a2a-sim with a slip', () => {
  it('refuses a misspelt option with the flag it meant, exit code 2 and no stack trace', async () => {
    const result = await serveRefused(['serve', '--prot', '4000']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'a2a-sim: Unknown option --prot. Did you mean --port?\nRun "a2a-sim --help" for the options.\n',
    );
  });

  it('refuses a misspelt command with the command it meant', async () => {
    const result = await serveRefused(['valdate', 'x.yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('a2a-sim: Unknown command valdate. Did you mean validate?\n');
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
  });
});
