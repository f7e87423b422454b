/**
 * Seeded randomness: the only source of chance in the simulator.
 *
 * One root seed fans out into named, independent streams (`content`, `timing`, `ids`, later `chaos`),
 * so drawing more numbers from one stream never shifts another: turning chaos on changes no text and
 * no timing.
 */
import seedrandom from 'seedrandom';

export class Random {
  private generator: seedrandom.PRNG | undefined;

  constructor(readonly seed: string) {}

  /** Seeded on the first draw: a stream that is only forked never pays for seeding. */
  private get prng(): seedrandom.PRNG {
    return (this.generator ??= seedrandom.alea('', { state: aleaState(this.seed) }));
  }

  /** An independent stream derived from this one's seed and a label. */
  fork(label: string): Random {
    return new Random(`${this.seed}/${label}`);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.prng();
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.prng() * (max - min + 1));
  }

  /** Uniform real in [min, max). */
  between(min: number, max: number): number {
    return min + this.prng() * (max - min);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Failed to pick: the list is empty.');
    return items[Math.floor(this.prng() * items.length)]!;
  }

  /** Standard normal draw (Box-Muller). */
  normal(mean: number, stddev: number): number {
    const u = 1 - this.prng();
    const v = this.prng();
    return mean + stddev * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Exponential draw with the given mean. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.prng());
  }

  /** A 32-bit unsigned integer, e.g. to seed another generator. */
  uint32(): number {
    return this.prng.int32() >>> 0;
  }

  /**
   * An RFC 4122 version-4 UUID drawn from this stream: four 32-bit draws written in hex, with the
   * version nibble set to 4 and the variant bits to 10. Ids are made per event: the digits go into
   * one shared buffer, which becomes the string in one allocation.
   */
  uuid(): string {
    const prng = this.prng;
    const [a, b, c, d] = [prng.int32(), prng.int32(), prng.int32(), prng.int32()];
    writeHex(a, 0, 8);
    writeHex(b >>> 16, 9, 4);
    UUID_BYTES[14] = 0x34; // '4': the version
    writeHex(b, 15, 3);
    writeHex(((c >>> 28) & 0x3) | 0x8, 19, 1); // the variant
    writeHex(c >>> 16, 20, 3);
    writeHex(c, 24, 4);
    writeHex(d, 28, 8);
    return UUID_BYTES.toString('latin1', 0, 36);
  }
}

/**
 * The state seedrandom's `alea(seed)` starts from: Baagøe's Mash over three spaces and then three
 * times over the seed, the same arithmetic. Computed here and handed to seedrandom as a saved state
 * because its own Mash keeps its running value in a closure, where V8 boxes every new double: about
 * 1.5 KB of garbage for each stream seeded, four streams for every task.
 */
function aleaState(seed: string): { c: number; s0: number; s1: number; s2: number } {
  const [s0, s1, s2] = SPACES.values;
  let n = mash(SPACES.after, seed);
  const t0 = s0 - fraction(n);
  n = mash(n, seed);
  const t1 = s1 - fraction(n);
  n = mash(n, seed);
  const t2 = s2 - fraction(n);
  return { c: 1, s0: t0 < 0 ? t0 + 1 : t0, s1: t1 < 0 ? t1 + 1 : t1, s2: t2 < 0 ? t2 + 1 : t2 };
}

/** Mash's running value after `data`. */
function mash(start: number, data: string): number {
  let n = start;
  for (let i = 0; i < data.length; i++) {
    n += data.charCodeAt(i);
    let h = 0.02519603282416938 * n;
    n = h >>> 0;
    h -= n;
    h *= n;
    n = h >>> 0;
    h -= n;
    n += h * 0x100000000; // 2^32
  }
  return n;
}

/** What Mash returns for its running value. */
function fraction(n: number): number {
  return (n >>> 0) * 2.3283064365386963e-10; // 2^-32
}

/** Mash's first three passes, over one space each, are the same for every seed. */
const SPACES = ((): { values: [number, number, number]; after: number } => {
  const n1 = mash(0xefc8249d, ' ');
  const n2 = mash(n1, ' ');
  const n3 = mash(n2, ' ');
  return { values: [fraction(n1), fraction(n2), fraction(n3)], after: n3 };
})();

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const UUID_BYTES = Buffer.from('00000000-0000-0000-0000-000000000000', 'latin1');

/** Writes the low `digits` hex digits of `value` into {@link UUID_BYTES} at `at`. */
function writeHex(value: number, at: number, digits: number): void {
  let rest = value;
  for (let i = at + digits - 1; i >= at; i--) {
    UUID_BYTES[i] = HEX_DIGITS[rest & 0xf]!;
    rest >>>= 4;
  }
}

/** The named streams one task draws from. */
export interface TaskStreams {
  ids: Random;
  content: Random;
  timing: Random;
}

export function taskStreams(seed: string): TaskStreams {
  const root = new Random(seed);
  return { ids: root.fork('ids'), content: root.fork('content'), timing: root.fork('timing') };
}
