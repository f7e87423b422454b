/**
 * docs/cli.md's option tables are the option rows (src/config/), written by `npm run docs:cli`:
 * regenerated here in memory, they must equal the committed page. And the rows agree with each
 * other: one meaning per flag in a command, per variable, and per option's default.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI_DOC, withOptionTables } from '../../scripts/docs-cli.js';
import { ALL_ROWS, COMMANDS } from '../../src/config/commands.js';
import { envNamesOf, type OptionGroup } from '../../src/config/row.js';

const committed = readFileSync(CLI_DOC, 'utf8');
const commands: [string, readonly OptionGroup[]][] = Object.entries(COMMANDS);

describe('docs/cli.md', () => {
  it('has the option tables the rows make (run `npm run docs:cli` after changing a row)', () => {
    expect(committed).toBe(withOptionTables(committed));
  });

  it('names every variable the CLI reads, old spellings included', () => {
    const variables = ALL_ROWS.flatMap(envNamesOf);
    expect(variables.length).toBeGreaterThan(40);
    expect(variables.filter((name) => !committed.includes(`\`${name}\``))).toEqual([]);
  });
});

describe('the option rows', () => {
  it.each(commands)('give %s each flag, alias and short flag once', (_, groups) => {
    const names = groups
      .flatMap((g) => g.rows)
      .flatMap((row) => [row.flag, ...(row.aliases ?? []), ...(row.short ? [row.short] : [])]);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it('give each variable one option, and each flag with a variable a name', () => {
    const meaning = new Map<string, string>();
    for (const row of ALL_ROWS) {
      if (row.env) expect(row.name, `--${row.flag} has a variable but sets no option`).toBeDefined();
      for (const variable of envNamesOf(row)) {
        expect(meaning.get(variable) ?? row.name, variable).toBe(row.name);
        meaning.set(variable, row.name!);
      }
    }
  });

  it('agree on the default of an option that several rows set', () => {
    const defaults = new Map<string, unknown>();
    for (const row of ALL_ROWS) {
      if (row.name === undefined || row.default === undefined) continue;
      expect(defaults.get(row.name) ?? row.default, row.name).toEqual(row.default);
      defaults.set(row.name, row.default);
    }
  });
});
