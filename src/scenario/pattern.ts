/**
 * The regular expressions written in scenario files: `text: /.../`, `messageId.regex`, the
 * `capture` template helper. They run on re2js, a JavaScript port of RE2, whose matching time is
 * linear in the text: JavaScript's backtracking engine takes seconds, then minutes, on a pattern
 * such as `from (.+?) to (.+)` against "from from from ...", holding the one event loop that
 * serves every client. On top of that, patterns read at most the first {@link MATCH_TEXT_LIMIT}
 * characters.
 *
 * @note Lookaround and backreferences have no linear-time implementation, so RE2 lacks them; a
 * pattern using them is refused at load rather than run on the native engine, where no bound on
 * the text would make `(a+)+$` safe.
 */
import { RE2JS } from 're2js';

/**
 * How much of a message's text matching rules and `capture` read: 64 Ki characters. Reading the
 * rest of a 4 MiB body would only cost time; a rule about what a message says is decided early.
 */
export const MATCH_TEXT_LIMIT = 64 * 1024;

/** The first {@link MATCH_TEXT_LIMIT} characters of `text`. */
export function boundedText(text: string): string {
  return text.length > MATCH_TEXT_LIMIT ? text.slice(0, MATCH_TEXT_LIMIT) : text;
}

export class PatternSyntaxError extends Error {}

/** JavaScript flags and what RE2 makes of them; `g`, `y` and `d` change nothing in a single match. */
const FLAGS: Readonly<Record<string, number>> = Object.freeze({
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  u: 0,
  v: 0,
  g: 0,
  y: 0,
  d: 0,
});

/** A compiled scenario pattern: linear-time, and blind past the first 64 Ki characters. */
export class Pattern {
  private constructor(
    private readonly re: RE2JS,
    readonly source: string,
    readonly flags: string,
  ) {}

  /**
   * Compiles a pattern written in JavaScript syntax, `\uXXXX` escapes included.
   * @example Pattern.compile('from (.+?) to (.+)', 'i').exec('Fly from Oslo to Rome')?.[2] // 'Rome'
   */
  static compile(source: string, flags = ''): Pattern {
    let bits = 0;
    for (const flag of flags) {
      const bit = FLAGS[flag];
      if (bit === undefined) throw new PatternSyntaxError(`invalid flag "${flag}"; use i, m, s or u`);
      bits |= bit;
    }
    const unsupported = unsupportedFeature(source);
    if (unsupported) {
      throw new PatternSyntaxError(
        `${unsupported} is not supported: scenario patterns run on a linear-time engine (RE2 syntax), so that no message can stall the server. Match the case to exclude with an earlier rule or branch instead`,
      );
    }
    try {
      return new Pattern(RE2JS.compile(toRe2Syntax(source), bits), source, flags.replace(/[gyd]/g, ''));
    } catch (error) {
      throw new PatternSyntaxError((error as Error).message.replace(/^error parsing regexp: /, ''));
    }
  }

  test(text: string): boolean {
    return this.re.test(boundedText(text));
  }

  /** The match and its groups (undefined for a group that took no part), or null. */
  exec(text: string): readonly (string | undefined)[] | null {
    return this.re.exec(boundedText(text));
  }

  toString(): string {
    return `/${this.source}/${this.flags}`;
  }
}

/** The JavaScript-only construct `source` uses, named for people, or undefined. */
function unsupportedFeature(source: string): string | undefined {
  const code = withoutEscapedCharacters(source);
  if (/\(\?<?[=!]/.test(code)) return 'lookaround ((?=...), (?!...), (?<=...), (?<!...))';
  if (/\\[1-9]|\\k</.test(source.replace(/\\\\/g, ''))) return 'a backreference (\\1, \\k<name>)';
  return undefined;
}

/** `source` with every `\x` escape blanked, so that `\(?=` is not read as a lookahead. */
function withoutEscapedCharacters(source: string): string {
  return source.replace(/\\./gs, '__');
}

/** `\u00e9` and `\u{1F600}` are written `\x{...}` in RE2; a `\\u` (literal backslash, u) stays. */
function toRe2Syntax(source: string): string {
  return source.replace(/\\(?:u\{([0-9A-Fa-f]+)\}|u([0-9A-Fa-f]{4})|(.))/gs, (whole, braced, four) =>
    braced !== undefined || four !== undefined ? `\\x{${braced ?? four}}` : whole,
  );
}
