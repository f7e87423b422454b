/**
 * Template grammar (scenario/template.ts) and, through the engine's renderer, what each variable and
 * helper produces for a seeded content stream.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { renderData, renderText, type RenderScope } from '../../src/engine/content.js';
import { loadFaker } from '../../src/lib/fake-data.js';
import { Random } from '../../src/lib/random.js';
import {
  hasTemplate,
  parseTemplate,
  TemplateSyntaxError,
  type Expression,
} from '../../src/scenario/template.js';

const NOW = Date.UTC(2026, 2, 4, 23, 59, 58, 765);

const scope = (overrides: Partial<RenderScope> = {}): RenderScope => ({
  inputText: 'Book a flight from Lisbon to Oslo, please',
  inputMessageId: 'msg-7',
  taskId: 'task-42',
  contextId: 'ctx-9',
  nowMs: NOW,
  random: new Random('template-seed'),
  vars: {},
  ...overrides,
});

const render = (source: string, s: RenderScope = scope()) => renderText(parseTemplate(source), s);
const renderValue = (source: string, s: RenderScope = scope()) => renderData(parseTemplate(source), s);
/** The one expression of a template that is a single `{{...}}`. */
const expressionOf = (source: string): Expression => {
  const [only, ...rest] = parseTemplate(source).segments;
  expect(rest).toEqual([]);
  expect(typeof only).toBe('object');
  return only as Expression;
};
/** Renders `source` with `count` fresh seeds. */
const acrossSeeds = (source: string, count: number) =>
  Array.from({ length: count }, (_, i) => renderValue(source, scope({ random: new Random(`seed-${i}`) })));

describe('parseTemplate', () => {
  it('keeps text without tags as one literal segment', () => {
    expect(hasTemplate('plain text')).toBe(false);
    expect(parseTemplate('plain text').segments).toEqual(['plain text']);
  });

  it('splits literal text and expressions in order', () => {
    const template = parseTemplate('Hi {{input.text}}, task {{ task.id }}!');
    expect(hasTemplate(template.source)).toBe(true);
    expect(template.segments).toEqual([
      'Hi ',
      { kind: 'variable', name: 'input.text' },
      ', task ',
      { kind: 'variable', name: 'task.id' },
      '!',
    ]);
  });

  it('reads helper arguments as numbers, booleans or quoted strings', () => {
    expect(expressionOf('{{int 60 95}}')).toEqual({ kind: 'helper', name: 'int', args: [60, 95] });
    expect(expressionOf('{{pick "a \\"b\\"" \'c d\' true -1.5}}')).toEqual({
      kind: 'helper',
      name: 'pick',
      args: ['a "b"', 'c d', true, -1.5],
    });
  });

  it('reads faker options as key=value pairs', () => {
    expect(expressionOf('{{faker.number.int min=1 max=9}}')).toEqual({
      kind: 'faker',
      path: ['number', 'int'],
      options: { min: 1, max: 9 },
    });
    expect(expressionOf('{{faker.location.city}}')).toEqual({
      kind: 'faker',
      path: ['location', 'city'],
      options: undefined,
    });
  });

  it('lists the faker paths and the vars a template uses', () => {
    const template = parseTemplate('{{vars.route.from}} {{faker.location.city}} {{vars.price}} {{uuid}}');
    expect(template.fakerPaths()).toEqual([['location', 'city']]);
    expect(template.varNames()).toEqual(['route', 'price']);
  });

  // A capture regex is documented as a regular expression; a double-quoted one must keep its escapes,
  // or `\d` silently turns into the letter "d".
  it('keeps regular-expression escapes in a double-quoted capture pattern', () => {
    expect(expressionOf('{{capture "(\\d+) nights" 1}}')).toMatchObject({
      kind: 'capture',
      pattern: { source: '(\\d+) nights', flags: 'i' },
      group: 1,
      fallback: '',
    });
  });

  describe('errors', () => {
    it.each([
      ['{{foo}}', /unknown template name "foo"/],
      ['{{input.foo}}', /unknown template name "input\.foo"/],
      ['{{constructor}}', /unknown template name "constructor"/],
      ['{{vars}}', /unknown template name "vars"/],
    ])('rejects the unknown name in %s and lists the known ones', (source, message) => {
      expect(() => parseTemplate(source)).toThrow(TemplateSyntaxError);
      expect(() => parseTemplate(source)).toThrow(message);
      expect(() => parseTemplate(source)).toThrow(
        /use one of input\.text, .*vars\.<name>, faker\.<module>\.<method>/,
      );
    });

    it.each([
      ['{{int 1}}', 'usage: {{int MIN MAX}}'],
      ['{{int 1 2 3}}', 'usage: {{int MIN MAX}}'],
      ['{{int min=1 max=2}}', 'usage: {{int MIN MAX}}'],
      ['{{float 0 1 2 3}}', 'usage: {{float MIN MAX [DECIMALS]}}'],
      ['{{pick}}', 'usage: {{pick "a" "b" ...}}'],
      ['{{capture "x"}}', 'usage: {{capture "REGEX" GROUP ["default"]}}'],
      ['{{capture "x" "1"}}', 'usage: {{capture "REGEX" GROUP ["default"]}}'],
      ['{{capture "x" 1 "d" "e"}}', 'usage: {{capture "REGEX" GROUP ["default"]}}'],
    ])('rejects the helper call %s with its usage', (source, message) => {
      expect(() => parseTemplate(source)).toThrow(new TemplateSyntaxError(message));
    });

    it.each([
      ['{{int "a" 2}}', /"int" takes numbers/],
      ['{{float 0 high}}', /"float" takes numbers/],
      ['{{capture "(" 1}}', /invalid regular expression in capture/],
      ['{{now 1}}', /"now" takes no arguments/],
      ['{{vars.a 1}}', /"vars\.a" takes no arguments/],
      ['{{vars.1a}}', /not a path like vars\.name/],
      ['{{faker.city}}', /not a faker method path/],
      ['{{faker.number.int 5}}', /faker options are written key=value/],
      ['{{"quoted"}}', /must start with a name/],
      ['{{ }}', /empty/],
      ['Hi {{input.text', /unclosed "\{\{"/],
      ['{{pick "open}}', /cannot read/],
    ])('rejects %s', (source, message) => {
      expect(() => parseTemplate(source)).toThrow(TemplateSyntaxError);
      expect(() => parseTemplate(source)).toThrow(message);
    });
  });
});

describe('rendering variables', () => {
  it('renders the input, task and context from the scope', () => {
    expect(render('{{input.text}}|{{input.messageId}}|{{task.id}}|{{context.id}}')).toBe(
      'Book a flight from Lisbon to Oslo, please|msg-7|task-42|ctx-9',
    );
  });

  it('renders now as an ISO 8601 UTC timestamp and today as its UTC date', () => {
    expect(render('{{now}}')).toBe(new Date(NOW).toISOString());
    expect(render('{{today}}')).toBe('2026-03-04');
  });

  it('renders uuid as a v4 UUID drawn from the content stream', () => {
    const [first, second] = render('{{uuid}} {{uuid}}').split(' ');
    const stream = new Random('template-seed');
    expect(first).toBe(stream.uuid());
    expect(second).toBe(stream.uuid());
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('reads nested vars, rendering objects as JSON in text and keeping them as values in data', () => {
    const route = { from: 'Lisbon', to: 'Oslo', stops: 0 };
    const s = scope({ vars: { route } });
    expect(render('{{vars.route.from}} to {{vars.route.to}}', s)).toBe('Lisbon to Oslo');
    expect(render('{{vars.route}}', s)).toBe(JSON.stringify(route));
    expect(renderValue('{{vars.route}}', s)).toEqual(route);
    expect(renderValue('{{vars.route.stops}}', s)).toBe(0);
  });
});

describe('rendering helpers', () => {
  it('draws int within [min, max] as a number, from the content stream', () => {
    const values = acrossSeeds('{{int 3 5}}', 200);
    expect(new Set(values)).toEqual(new Set([3, 4, 5]));
    expect(renderValue('{{int 1 1000}}')).toBe(new Random('template-seed').int(1, 1000));
  });

  it('draws float within bounds, with 2 decimals by default or the given number', () => {
    for (const value of acrossSeeds('{{float 1 2}}', 100) as number[]) {
      expect(value).toBeGreaterThanOrEqual(1);
      expect(value).toBeLessThanOrEqual(2);
      expect(Math.round(value * 100) / 100).toBe(value);
    }
    for (const value of acrossSeeds('{{float 0 100 0}}', 50)) expect(Number.isInteger(value)).toBe(true);
  });

  it('picks each of its options, keeping their types in data', () => {
    expect(new Set(acrossSeeds('{{pick "sunny" "rainy" 7}}', 200))).toEqual(new Set(['sunny', 'rainy', 7]));
  });

  it('renders the same text for the same seed and different draws within one template', () => {
    const source = '{{int 1 1000000}} {{int 1 1000000}} {{pick "a" "b" "c" "d"}}';
    const first = render(source);
    expect(render(source)).toBe(first);
    const [a, b] = first.split(' ');
    expect(a).not.toBe(b);
  });

  it('captures a group of a case-insensitive regex on the input text, trimmed', () => {
    const s = scope({ inputText: 'FROM  Lisbon  TO Oslo ' });
    expect(render('{{capture "from (.+?) to (.+)" 1}}-{{capture "from (.+?) to (.+)" 2}}', s)).toBe(
      'Lisbon-Oslo',
    );
  });

  it('falls back to the default, or to empty text, when the capture does not match', () => {
    const s = scope({ inputText: 'Book me a flight' });
    expect(render('{{capture "from (.+) to (.+)" 2 "New York"}}', s)).toBe('New York');
    expect(render('[{{capture "from (.+) to (.+)" 2}}]', s)).toBe('[]');
    expect(render('{{capture "flight( to ([a-z]+))?" 2 "nowhere"}}', s)).toBe('nowhere');
  });

  it('matches regular-expression escapes in a double-quoted capture pattern', () => {
    const s = scope({ inputText: 'A room for 3 nights' });
    expect(render('{{capture "(\\d+) nights" 1 "none"}}', s)).toBe('3');
  });
});

describe('rendering faker calls', () => {
  beforeAll(async () => {
    await loadFaker();
  });

  it('gives the same value for the same seed and a different one for another seed', () => {
    const source = '{{faker.string.uuid}} {{faker.location.city}}';
    const first = render(source);
    expect(render(source)).toBe(first);
    expect(render(source, scope({ random: new Random('another-seed') }))).not.toBe(first);
  });

  it('draws a fresh faker seed for each call in one template', () => {
    const [a, b] = render('{{faker.string.uuid}} {{faker.string.uuid}}').split(' ');
    expect(a).not.toBe(b);
  });

  it('passes key=value options to the faker method', () => {
    expect(new Set(acrossSeeds('{{faker.number.int min=4 max=6}}', 100))).toEqual(new Set([4, 5, 6]));
  });

  it('dates relative to the scope time, not the wall clock', () => {
    const soon = Date.parse(render('{{faker.date.soon days=2}}'));
    expect(soon).toBeGreaterThanOrEqual(NOW);
    expect(soon).toBeLessThanOrEqual(NOW + 2 * 86_400_000);
  });
});
