/**
 * Seeded randomness: one seed, named streams that never disturb one another.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { Random, taskStreams } from '../../src/lib/random.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** `count` draws of `draw` from `random`. */
const draws = <T>(random: Random, count: number, draw: (r: Random) => T): T[] =>
  Array.from({ length: count }, () => draw(random));
const nexts = (random: Random, count = 20) => draws(random, count, (r) => r.next());

describe('Random', () => {
  it('gives the same sequence for the same seed', () => {
    expect(nexts(new Random('alpha'))).toEqual(nexts(new Random('alpha')));
    expect(draws(new Random('alpha'), 10, (r) => r.uint32())).toEqual(
      draws(new Random('alpha'), 10, (r) => r.uint32()),
    );
  });

  it('gives a different sequence for a different seed', () => {
    expect(nexts(new Random('alpha'))).not.toEqual(nexts(new Random('beta')));
  });

  it('draws next() uniformly from [0, 1)', () => {
    const values = nexts(new Random('unit'), 2000);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
  });

  describe('fork', () => {
    it('depends only on the seed and label, not on draws already made from the parent', () => {
      const used = new Random('root');
      nexts(used, 50);
      expect(nexts(used.fork('x'))).toEqual(nexts(new Random('root').fork('x')));
    });

    it('does not move the parent stream', () => {
      const forked = new Random('root');
      nexts(forked.fork('x'), 50);
      expect(nexts(forked)).toEqual(nexts(new Random('root')));
    });

    it('gives different streams for different labels, and differs from the parent', () => {
      const root = new Random('root');
      const x = nexts(root.fork('x'));
      expect(x).not.toEqual(nexts(root.fork('y')));
      expect(x).not.toEqual(nexts(new Random('root')));
    });
  });

  describe('int', () => {
    it('stays within [min, max], both inclusive, and reaches both ends', () => {
      const values = draws(new Random('int'), 1000, (r) => r.int(-2, 2));
      expect(values.every(Number.isInteger)).toBe(true);
      expect(new Set(values)).toEqual(new Set([-2, -1, 0, 1, 2]));
    });

    it('returns the only value when min equals max', () => {
      expect(draws(new Random('int'), 20, (r) => r.int(7, 7))).toEqual(Array(20).fill(7));
    });
  });

  it('draws between() within [min, max)', () => {
    const values = draws(new Random('between'), 1000, (r) => r.between(10, 12));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...values)).toBeLessThan(12);
    expect(values.some((v) => !Number.isInteger(v))).toBe(true);
  });

  describe('pick', () => {
    it('picks only items of the list, and every item eventually', () => {
      const items = ['red', 'green', 'blue'] as const;
      const picked = draws(new Random('pick'), 300, (r) => r.pick(items));
      expect(new Set(picked)).toEqual(new Set(items));
    });

    it('refuses an empty list', () => {
      expect(() => new Random('pick').pick([])).toThrow(RangeError);
    });
  });

  it('draws exponential() values that are non-negative with roughly the given mean', () => {
    const values = draws(new Random('exp'), 4000, (r) => r.exponential(100));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeGreaterThan(90);
    expect(mean).toBeLessThan(110);
  });

  it('draws normal() values around the given mean', () => {
    const values = draws(new Random('normal'), 4000, (r) => r.normal(50, 5));
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeGreaterThan(49);
    expect(mean).toBeLessThan(51);
    expect(values.every(Number.isFinite)).toBe(true);
  });

  it("draws exactly what seedrandom's alea(seed) draws, whatever the seed", () => {
    const seeds = ['', ' ', 'a2a-sim', 'a2a-sim/weather/u9juNhxF9ykGqfGx#0/turn-1/content', 'ünï©ødé ✓'];
    for (let i = 0; i < 300; i++) seeds.push(`seed-${i}/${'x'.repeat(i % 70)}`);
    for (const seed of seeds) {
      const ours = new Random(seed);
      const reference = seedrandom.alea(seed);
      const drawn = Array.from({ length: 200 }, (_, k) => (k % 2 ? ours.next() : ours.uint32()));
      const expected = Array.from({ length: 200 }, (_, k) => (k % 2 ? reference() : reference.int32() >>> 0));
      expect(drawn, seed).toEqual(expected);
    }
  });

  describe('uuid', () => {
    it('writes the four 32-bit draws as hex with the version and variant bits set', () => {
      const reference = (r: Random) => {
        const h = Array.from({ length: 4 }, () => r.uint32().toString(16).padStart(8, '0')).join('');
        const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
        return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
      };
      for (let i = 0; i < 200; i++) expect(new Random(`u${i}`).uuid()).toBe(reference(new Random(`u${i}`)));
    });

    it('is shaped like an RFC 4122 version-4 UUID', () => {
      for (const id of draws(new Random('uuid'), 500, (r) => r.uuid())) expect(id).toMatch(UUID_V4);
    });

    it('is reproducible from the seed and unique within a stream', () => {
      const ids = draws(new Random('uuid'), 500, (r) => r.uuid());
      expect(draws(new Random('uuid'), 500, (r) => r.uuid())).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Random('other').uuid()).not.toBe(ids[0]);
    });
  });
});

describe('taskStreams', () => {
  it('gives the same streams for the same seed', () => {
    const [a, b] = [taskStreams('task-seed'), taskStreams('task-seed')];
    expect(a.ids.uuid()).toBe(b.ids.uuid());
    expect(nexts(a.content)).toEqual(nexts(b.content));
    expect(nexts(a.timing)).toEqual(nexts(b.timing));
  });

  it('gives ids, content and timing as three distinct streams', () => {
    const { ids, content, timing } = taskStreams('task-seed');
    const [i, c, t] = [nexts(ids), nexts(content), nexts(timing)];
    expect(i).not.toEqual(c);
    expect(c).not.toEqual(t);
    expect(i).not.toEqual(t);
  });

  it.each(['ids', 'content', 'timing'] as const)(
    'leaves the other streams unchanged when %s is drawn from',
    (used) => {
      const untouched = taskStreams('task-seed');
      const drained = taskStreams('task-seed');
      nexts(drained[used], 100);
      for (const name of (['ids', 'content', 'timing'] as const).filter((n) => n !== used)) {
        expect(nexts(drained[name])).toEqual(nexts(untouched[name]));
      }
    },
  );

  it("draws exactly what seedrandom's alea draws for each stream's seed, whatever the seed", () => {
    const seeds = ['', 'ünï©ødé ✓', 'a2a-sim/weather/u9juNhxF9ykGqfGx#0/turn-1'];
    for (let i = 0; i < 200; i++) seeds.push(`seed-${i}/${'y'.repeat(i % 90)}`);
    for (const seed of seeds) {
      const streams = taskStreams(seed);
      for (const label of ['ids', 'content', 'timing'] as const) {
        const reference = seedrandom.alea(`${seed}/${label}`);
        const drawn = Array.from({ length: 6 }, (_, k) =>
          k % 2 ? streams[label].next() : streams[label].uint32(),
        );
        const expected = Array.from({ length: 6 }, (_, k) => (k % 2 ? reference() : reference.int32() >>> 0));
        expect(drawn, `${seed} ${label}`).toEqual(expected);
      }
    }
  });

  it('derives each stream from the seed like a fork of the root', () => {
    const streams = taskStreams('task-seed');
    const root = new Random('task-seed');
    expect(streams.ids.seed).toBe(root.fork('ids').seed);
    expect(nexts(streams.content)).toEqual(nexts(root.fork('content')));
  });
});
