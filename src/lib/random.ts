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

  /** An RFC 4122 version-4 UUID drawn from this stream. */
  uuid(): string {
    const hex: string[] = [];
    for (let i = 0; i < 4; i++) hex.push((this.prng.int32() >>> 0).toString(16).padStart(8, '0'));
    const h = hex.join('');
    const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
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
