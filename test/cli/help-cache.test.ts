import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { skipHelpCache } from '../../src/cli/help-cache.js';

function cli(args: string[], handler: () => Promise<void> = async () => {}) {
  return yargs(args)
    .command({
      command: ['serve', '$0'],
      describe: 'Start',
      builder: (y) => y.option('port', { type: 'number', describe: 'Port to listen on' }),
      handler,
    })
    .strict()
    .exitProcess(false);
}

describe('skipHelpCache', () => {
  it('finds the yargs internal it replaces (a yargs upgrade that moves it fails here)', () => {
    expect(skipHelpCache(cli([]))).toBe(true);
  });

  it('still runs the named command with its options', async () => {
    let ran = false;
    const parser = cli(['serve', '--port', '0'], async () => {
      ran = true;
    });
    skipHelpCache(parser);
    expect((await parser.parseAsync()).port).toBe(0);
    expect(ran).toBe(true);
  });

  it('still shows the named command its help', async () => {
    const parser = cli([]);
    skipHelpCache(parser);
    const output = await new Promise<string>((resolve) => {
      void parser.parseAsync(['serve', '--help'], {}, (_error, _argv, text) => resolve(text));
    });
    expect(output).toMatch(/--port\s+Port to listen on/);
  });

  it('still reports a command that fails after it started', async () => {
    const failures: string[] = [];
    const parser = cli(['serve'], () => Promise.reject(new Error('Failed to listen: port taken.'))).fail(
      (message, error) => failures.push(error?.message ?? message),
    );
    skipHelpCache(parser);
    await parser.parseAsync().catch(() => {});
    expect(failures).toEqual(['Failed to listen: port taken.']);
  });
});
