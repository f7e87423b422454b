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

  /** `state`: what `aleaState(seed)` gives, when it was worked out with other streams' (see {@link taskStreams}). */
  constructor(
    readonly seed: string,
    private state?: AleaState,
  ) {}

  /** Seeded on the first draw: a stream that is only forked never pays for seeding. */
  private get prng(): seedrandom.PRNG {
    if (this.generator) return this.generator;
    const state = this.state ?? aleaState(this.seed);
    this.state = undefined;
    return (this.generator = seedrandom.alea('', { state }));
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

interface AleaState {
  c: number;
  s0: number;
  s1: number;
  s2: number;
}

/**
 * The state seedrandom's `alea(seed)` starts from: Baagøe's Mash over three spaces and then three
 * times over the seed, the same arithmetic. Computed here and handed to seedrandom as a saved state
 * because its own Mash keeps its running value in a closure, where V8 boxes every new double: about
 * 1.5 KB of garbage for each stream seeded, four streams for every task.
 */
function aleaState(seed: string): AleaState {
  let n = mash(SPACES.after, seed);
  const f0 = fraction(n);
  n = mash(n, seed);
  const f1 = fraction(n);
  return stateOf(f0, f1, fraction(mash(n, seed)));
}

/**
 * {@link aleaState} of `prefix + label` for three labels at once. Each pass of Mash is a chain of
 * dependent multiplications, so the CPU waits on each step: the three chains over the shared prefix
 * run side by side in one loop, and the first pass over it is made once.
 */
function aleaStates(
  prefix: string,
  labels: readonly [string, string, string],
): [AleaState, AleaState, AleaState] {
  const afterPrefix = mash(SPACES.after, prefix);
  const first = labels.map((label) => mash(afterPrefix, label));
  const lanes = Float64Array.from(first);
  mashLanes(lanes, prefix);
  const second = labels.map((label, k) => mash(lanes[k]!, label));
  lanes.set(second);
  mashLanes(lanes, prefix);
  const third = labels.map((label, k) => mash(lanes[k]!, label));
  return [0, 1, 2].map((k) => stateOf(fraction(first[k]!), fraction(second[k]!), fraction(third[k]!))) as [
    AleaState,
    AleaState,
    AleaState,
  ];
}

/** Alea's state after Mash gave `f0`, `f1` and `f2` for the seed. */
function stateOf(f0: number, f1: number, f2: number): AleaState {
  const [s0, s1, s2] = SPACES.values;
  const t0 = s0 - f0;
  const t1 = s1 - f1;
  const t2 = s2 - f2;
  return { c: 1, s0: t0 < 0 ? t0 + 1 : t0, s1: t1 < 0 ? t1 + 1 : t1, s2: t2 < 0 ? t2 + 1 : t2 };
}

/**
 * Mash's running value after `data`. Mash writes `h >>> 0`; `h` stays in [0, 2^32) here (the running
 * value is below 2^33), where that is `Math.floor(h)`, which V8 computes without leaving floating point.
 */
function mash(start: number, data: string): number {
  let n = start;
  for (let i = 0; i < data.length; i++) {
    n += data.charCodeAt(i);
    let h = 0.02519603282416938 * n;
    n = Math.floor(h);
    h -= n;
    h *= n;
    n = Math.floor(h);
    h -= n;
    n += h * 0x100000000; // 2^32
  }
  return n;
}

/** {@link mash} of `data` from each of three running values, in place: its steps, side by side. */
function mashLanes(lanes: Float64Array, data: string): void {
  let a = lanes[0]!;
  let b = lanes[1]!;
  let c = lanes[2]!;
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i);
    const ha = 0.02519603282416938 * (a + code);
    const hb = 0.02519603282416938 * (b + code);
    const hc = 0.02519603282416938 * (c + code);
    const fa = Math.floor(ha);
    const fb = Math.floor(hb);
    const fc = Math.floor(hc);
    const ga = (ha - fa) * fa;
    const gb = (hb - fb) * fb;
    const gc = (hc - fc) * fc;
    const ea = Math.floor(ga);
    const eb = Math.floor(gb);
    const ec = Math.floor(gc);
    a = ea + (ga - ea) * 0x100000000;
    b = eb + (gb - eb) * 0x100000000;
    c = ec + (gc - ec) * 0x100000000;
  }
  lanes[0] = a;
  lanes[1] = b;
  lanes[2] = c;
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

/**
 * The streams `new Random(seed)` forks as `ids`, `content` and `timing`, seeded together: a task
 * draws from all three, and their seeds share all but their last few characters.
 */
export function taskStreams(seed: string): TaskStreams {
  const prefix = `${seed}/`;
  const [ids, content, timing] = aleaStates(prefix, STREAM_LABELS);
  return {
    ids: new Random(`${prefix}ids`, ids),
    content: new Random(`${prefix}content`, content),
    timing: new Random(`${prefix}timing`, timing),
  };
}

const STREAM_LABELS = ['ids', 'content', 'timing'] as const;
