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
    return (this.generator ??= seedrandom.alea(this.seed));
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
   * version nibble set to 4 and the variant bits to 10. Ids are made per event, hence the tables.
   */
  uuid(): string {
    const prng = this.prng;
    const [a, b, c, d] = [prng.int32(), prng.int32(), prng.int32(), prng.int32()];
    return (
      `${hex8(a)}-${hex4(b >>> 16)}-4${HEX_DIGIT[(b >>> 8) & 0xf]}${HEX_BYTE[b & 0xff]}-` +
      `${HEX_DIGIT[((c >>> 28) & 0x3) | 0x8]}${HEX_DIGIT[(c >>> 24) & 0xf]}${HEX_BYTE[(c >>> 16) & 0xff]}-` +
      `${hex4(c & 0xffff)}${hex8(d)}`
    );
  }
}

const HEX_DIGIT = '0123456789abcdef';
const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex4 = (x: number) => HEX_BYTE[(x >>> 8) & 0xff]! + HEX_BYTE[x & 0xff]!;
const hex8 = (x: number) => hex4(x >>> 16) + hex4(x);

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
