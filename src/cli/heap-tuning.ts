/**
 * The one V8 setting the command line makes, as it starts, before it serves anything: no
 * allocation-site pretenuring.
 *
 * V8 watches each object literal and, once most of its objects outlive a young-generation
 * collection, makes all its later objects in the old generation, a decision it never revisits. A
 * burst of new streams (a thousand opened at once) makes nearly every object of the event path
 * outlive the short collections of that moment, so their literals are pretenured for good. Most of
 * those objects die within a tick afterwards: made old, they fill the old generation with garbage,
 * and each full collection it then needs pauses every stream for tens of milliseconds. Without
 * pretenuring, 1,000 chunk streams held ~12 KB less a stream, and a full collection fell in none of
 * nine measured windows, against seven of 25 with it (BENCHMARKS.md, run X). `node --allocation-site-pretenuring` keeps V8's default.
 *
 * The programmatic API does not do this: a library leaves its host's runtime as it found it.
 */
import { setFlagsFromString } from 'node:v8';

if (!process.execArgv.some((flag) => flag.includes('allocation-site-pretenuring')))
  setFlagsFromString('--no-allocation-site-pretenuring');
