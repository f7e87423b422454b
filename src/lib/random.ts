/**
 * Seeded randomness: the only source of chance in the simulator.
 *
 * One root seed fans out into named, independent streams (`content`, `timing`, `ids`, later `chaos`),
 * so drawing more numbers from one stream never shifts another: turning chaos on changes no text and
 * no timing.
 *
 * Each stream is Baagøe's Alea, drawing exactly what seedrandom's `alea(seed)` draws (the tests hold
 * it to seedrandom, number for number). Its step is kept here, in the stream's own fields: seedrandom
 * makes every generator from closures and a Mash of its own, 700 bytes each, and a task seeds four.
 */
export class Random {
  private seeded = false;
  // Alea's state: a carry and three fractions in [0, 1).
  private c = 1;
  private s0 = 0.5;
  private s1 = 0.5;
  private s2 = 0.5;

  /** `state`: what `aleaState(seed)` gives, when it was worked out with other streams' (see {@link taskStreams}). */
  constructor(
    readonly seed: string,
    state?: AleaState,
  ) {
    if (state) this.load(state);
  }

  private load({ c, s0, s1, s2 }: AleaState): void {
    this.c = c;
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.seeded = true;
  }

  /** An independent stream derived from this one's seed and a label. */
  fork(label: string): Random {
    return new Random(`${this.seed}/${label}`);
  }

  /**
   * Uniform in [0, 1): Alea's step. Seeded on the first draw: a stream that is only forked never
   * pays for seeding.
   */
  next(): number {
    if (!this.seeded) this.load(aleaState(this.seed));
    const t = 2091639 * this.s0 + this.c * 2.3283064365386963e-10; // 2^-32
    this.s0 = this.s1;
    this.s1 = this.s2;
    return (this.s2 = t - (this.c = t | 0));
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform real in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Failed to pick: the list is empty.');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Standard normal draw (Box-Muller). */
  normal(mean: number, stddev: number): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + stddev * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Exponential draw with the given mean. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next());
  }

  /** A 32-bit unsigned integer, e.g. to seed another generator. */
  uint32(): number {
    return this.int32() >>> 0;
  }

  /** A 32-bit signed integer, as seedrandom's `int32()`. */
  private int32(): number {
    return (this.next() * 0x100000000) | 0;
  }

  /**
   * An RFC 4122 version-4 UUID drawn from this stream: four 32-bit draws written in hex, with the
   * version nibble set to 4 and the variant bits to 10. Ids are made per event: the digits go into
   * one shared buffer, which becomes the string in one allocation.
   */
  uuid(): string {
    const a = this.int32();
    const b = this.int32();
    const c = this.int32();
    const d = this.int32();
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
 * times over the seed, the same arithmetic. seedrandom's own Mash keeps its running value in a
 * closure, where V8 boxes every new double: about 1.5 KB of garbage for each stream seeded.
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
  for (let k = 0; k < 3; k++) {
    LANES[k] = mash(afterPrefix, labels[k]!);
    FRACTIONS[k] = fraction(LANES[k]!);
  }
  for (let pass = 1; pass < 3; pass++) {
    mashLanes(LANES, prefix);
    for (let k = 0; k < 3; k++) {
      LANES[k] = mash(LANES[k]!, labels[k]!);
      FRACTIONS[3 * pass + k] = fraction(LANES[k]!);
    }
  }
  const stateAt = (k: number) => stateOf(FRACTIONS[k]!, FRACTIONS[3 + k]!, FRACTIONS[6 + k]!);
  return [stateAt(0), stateAt(1), stateAt(2)];
}

/** {@link aleaStates}'s three running values, and the fractions of its three passes, lane by lane. */
const LANES = new Float64Array(3);
const FRACTIONS = new Float64Array(9);

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
