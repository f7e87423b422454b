/**
 * `a2a-sim/vitest`: one simulator per test file, started in `beforeAll` on a free loopback port and
 * a virtual clock, reset after each test, stopped in `afterAll`. vitest is a peer dependency,
 * imported only by this entry point.
 *
 * @example
 * import { expect, it } from 'vitest';
 * import { useA2aSim } from 'a2a-sim/vitest';
 * const a2a = useA2aSim({ seed: 'checkout' });
 * it('answers', async () => {
 *   const res = await a2a.drive(fetch(`${a2a.url}/message:send`, { method: 'POST', … }));
 *   expect(res.status).toBe(200);
 * });
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { registerA2aSim, type A2aSim, type A2aSimOptions } from './testing.js';

/** Registers the simulator's hooks in the file (or `describe`) it is called in; see {@link registerA2aSim}. */
export function useA2aSim(options: A2aSimOptions = {}): A2aSim {
  return registerA2aSim({ beforeAll, afterEach, afterAll }, options);
}

export * from './testing.js';
