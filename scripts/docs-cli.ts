/**
 * Writes the option tables of docs/cli.md from the option rows (src/config/), between its
 * `options:begin` and `options:end` comments: `npm run docs:cli` after changing a row.
 * test/docs/cli-options.test.ts fails when the committed tables and the rows disagree.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../src/config/commands.js';
import { envNamesOf, OWN_OPTIONS, type OptionGroup, type OptionRow } from '../src/config/row.js';
import { formatBytes } from '../src/lib/bytes.js';
import { formatDuration } from '../src/lib/duration.js';

export const CLI_DOC = fileURLToPath(new URL('../docs/cli.md', import.meta.url));
const BEGIN = '<!-- options:begin (written by `npm run docs:cli` from src/config/: edit the rows there) -->';
const END = '<!-- options:end -->';

/** A table cell: `|` would end it, and help text is plain text, not markdown. */
function cell(text: string, { markdown = false } = {}): string {
  const escaped = markdown ? text : text.replace(/([*`])/g, '\\$1');
  return escaped.replace(/\|/g, '\\|');
}

const PLACEHOLDERS: Record<OptionRow['type'], string> = {
  string: 'TEXT',
  boolean: '',
  number: 'N',
  duration: 'DURATION',
  size: 'SIZE',
  instant: 'ISO',
  'api-keys': 'KEY[=WS1,WS2]',
  headers: "'NAME: VALUE'",
};

function flagOf(row: OptionRow): string {
  const arg = row.arg ?? (row.choices ? row.choices.join('|') : PLACEHOLDERS[row.type]);
  const name = row.type === 'boolean' && row.default === true ? `--[no-]${row.flag}` : `--${row.flag}`;
  return `${row.short ? `-${row.short}, ` : ''}${name}${arg ? ` ${arg}` : ''}`;
}

function defaultOf(row: OptionRow): string {
  const value = row.default;
  if (value === undefined) return cell(row.defaultText ?? '');
  if (typeof value === 'number' && row.type === 'duration') return `\`${formatDuration(value)}\``;
  if (typeof value === 'number' && row.type === 'size') return `\`${formatBytes(value)}\``;
  if (Array.isArray(value)) return value.length ? `\`${value.join(' ')}\`` : 'none';
  return `\`${value === '' ? '""' : String(value)}\``;
}

function describe(row: OptionRow): string {
  const text = row.doc === undefined ? cell(row.help) : cell(row.doc, { markdown: true });
  const old = (row.aliases ?? []).map((alias) => `\`--${alias}\``);
  // A standard variable comes first; the row's own A2A_SIM_ one is read after it.
  const [own, ...oldVariables] = envNamesOf(row).slice(row.standardEnv ? 1 : 0);
  const notes = [
    ...(row.standardEnv && own ? [`\`${own}\` sets it too.`] : []),
    ...(old.length
      ? [
          `Old spelling${old.length > 1 ? 's' : ''}, still read (deprecated): ${old.join(', ')}${oldVariables.length ? ` and ${oldVariables.map((v) => `\`${v}\``).join(', ')}` : ''}.`,
        ]
      : []),
    ...(row.replaces
      ? [`Old option name, still read (deprecated): \`${row.replaces}\`, in milliseconds.`]
      : []),
  ];
  return [text.endsWith('.') ? text : `${text}.`, ...notes].join(' ');
}

function table(rows: readonly OptionRow[]): string[] {
  return [
    '| Flag | Variable | Option | Default | What it does |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((row) =>
      [
        '',
        `\`${cell(flagOf(row), { markdown: true })}\``,
        row.env ? `\`${envNamesOf(row)[0]}\`` : '',
        row.name ? `\`${row.name}\`` : '',
        defaultOf(row),
        describe(row),
        '',
      ]
        .join(' | ')
        .trim(),
    ),
  ];
}

/** Consecutive groups under one title make one table (serve's proxy, then how it reaches the agent). */
function merged(groups: readonly OptionGroup[]): OptionGroup[] {
  const tables: { title: string; rows: OptionRow[] }[] = [];
  for (const { title, rows } of groups) {
    const last = tables.at(-1);
    if (last?.title === title) last.rows.push(...rows);
    else tables.push({ title, rows: [...rows] });
  }
  return tables;
}

interface Shown {
  command: string;
  title: string;
}

/**
 * "Takes serve's *Scenarios* options": rows already in an earlier command's tables, by the heading
 * they were under there, or by flag where the command takes only some of that heading's rows.
 */
function reference(rows: readonly OptionRow[], shown: ReadonlyMap<OptionRow, Shown>): string {
  const from = shown.get(rows[0]!)!.command;
  const titles = [...new Set(rows.map((row) => shown.get(row)!.title))];
  const parts = titles.map((title) => {
    const taken = rows.filter((row) => shown.get(row)!.title === title);
    const all = [...shown.values()].filter((s) => s.command === from && s.title === title);
    return taken.length === all.length ? `*${title}*` : taken.map((row) => `\`--${row.flag}\``).join(', ');
  });
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
  return `Takes ${from}'s ${list} options`;
}

/** The markdown between the markers: a section per command, a table per heading of its `--help`. */
export function optionTables(): string {
  const shown = new Map<OptionRow, Shown>();
  const sections: string[] = [];
  const commands: [string, readonly OptionGroup[]][] = Object.entries(COMMANDS);
  for (const [command, groups] of commands) {
    const lines = [`### ${command}`, ''];
    // A group shared with an earlier command (serve's, say) is named, not shown again.
    const fresh = groups.filter((g) => g.rows.some((row) => !shown.has(row)));
    const again = groups.filter((g) => !fresh.includes(g)).flatMap((g) => g.rows);
    if (again.length) lines.push(`${reference(again, shown)}${fresh.length ? ', and these:' : '.'}`, '');
    if (!groups.length) lines.push('No options of its own.', '');
    for (const { title, rows } of merged(fresh)) {
      if (title !== OWN_OPTIONS) lines.push(`**${title}**`, '');
      lines.push(...table(rows), '');
      for (const row of rows) if (!shown.has(row)) shown.set(row, { command, title });
    }
    sections.push(lines.join('\n').trimEnd());
  }
  return sections.join('\n\n');
}

/** docs/cli.md with its tables written from the rows; the rest of it as it is. */
export function withOptionTables(doc: string): string {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) {
    throw new Error(`Failed to write the option tables: docs/cli.md needs the lines ${BEGIN} and ${END}.`);
  }
  // Prettier would pad every column of every table to its widest cell: these are left as written.
  const tables = `<!-- prettier-ignore-start -->\n${optionTables()}\n<!-- prettier-ignore-end -->`;
  return `${doc.slice(0, begin + BEGIN.length)}\n${tables}\n${doc.slice(end)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const doc = await readFile(CLI_DOC, 'utf8');
  const written = withOptionTables(doc);
  if (written === doc) process.stdout.write('docs/cli.md: the option tables are up to date.\n');
  else {
    await writeFile(CLI_DOC, written);
    process.stdout.write('docs/cli.md: the option tables are written from the rows.\n');
  }
}
