/** The curl command and the Send again headers the dashboard makes of a journaled request. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { replayHeaders, shellQuote, toCurl } from '../../src/admin/dashboard/replay.js';

/** What `sh` reads `words` as: each word on its own line. */
const shellWords = (words: string) =>
  execFileSync('sh', ['-c', `printf '%s\\n' ${words}`], { encoding: 'utf8', env: {} });

const ORIGIN = 'http://127.0.0.1:41241';

describe('shellQuote', () => {
  it.each([["it's"], ['$HOME `id` "q" \\ \n new line'], [''], ["''"]])('%j is one word, as it is', (text) => {
    expect(shellWords(shellQuote(text))).toBe(`${text}\n`);
  });
});

describe('toCurl', () => {
  const entry = {
    method: 'POST',
    path: '/message:send',
    headers: {
      host: '127.0.0.1:41241',
      'content-type': 'application/json',
      'content-length': '40',
      connection: 'keep-alive',
      authorization: '(redacted)',
      'x-api-key': '(redacted)',
    },
    body: `{"text":"it's"}`,
  };

  it('sends the same method, URL, headers and body; a masked secret stays a shell variable', () => {
    expect(toCurl(entry, { origin: ORIGIN })).toBe(
      `curl -sS 'http://127.0.0.1:41241/message:send' -H 'Content-Type: application/json' ` +
        `-H "Authorization: \${A2A_AUTHORIZATION}" -H "X-Api-Key: \${A2A_API_KEY}" ` +
        `--data-binary '{"text":"it'\\''s"}'`,
    );
  });

  it('puts in a secret the operator gives', () => {
    const command = toCurl(entry, { origin: ORIGIN, secrets: { authorization: 'Bearer t0k3n' } });
    expect(command).toContain(`-H 'Authorization: Bearer t0k3n'`);
    expect(command).toContain('${A2A_API_KEY}');
  });

  it('streams with -N, names a method curl would not guess, and keeps the path on the origin', () => {
    expect(
      toCurl(
        { method: 'GET', path: '/tasks/t-1:subscribe', headers: {}, streamed: true },
        { origin: ORIGIN },
      ),
    ).toBe(`curl -sS -N 'http://127.0.0.1:41241/tasks/t-1:subscribe'`);
    expect(toCurl({ method: 'DELETE', path: '//elsewhere.example/x', headers: {} }, { origin: ORIGIN })).toBe(
      `curl -sS -X 'DELETE' 'http://127.0.0.1:41241//elsewhere.example/x'`,
    );
  });

  it('quotes a header any client wrote, even one that claims to be masked', () => {
    const command = toCurl(
      { method: 'GET', path: '/', headers: { 'x-evil': '(redacted)', 'x-q': "$(id) `id` '" } },
      { origin: ORIGIN },
    );
    expect(command).toBe(
      `curl -sS 'http://127.0.0.1:41241/' -H 'X-Evil: (redacted)' -H 'X-Q: $(id) \`id\` '\\'''`,
    );
  });
});

describe('replayHeaders', () => {
  it('leaves out the connection, what the browser sets, and the masked secrets; names the page', () => {
    expect(
      replayHeaders(
        {
          host: 'h',
          'content-length': '2',
          'user-agent': 'curl/8',
          'sec-fetch-mode': 'cors',
          authorization: '(redacted)',
          'x-sim-client': 'someone',
          'a2a-version': '1.0',
          'content-type': 'application/json',
        },
        'a2a-sim-dashboard',
      ),
    ).toEqual({
      'a2a-version': '1.0',
      'content-type': 'application/json',
      'x-sim-client': 'a2a-sim-dashboard',
    });
  });
});
