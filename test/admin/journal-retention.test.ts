/**
 * What the journal keeps of a stream it shows is its bounded copy, not the stream: once the store
 * has forgotten a task, nothing of the stream that followed it (its response, its request, the
 * task's log) stays alive through the journal's entry, however long the journal keeps it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { startSimWith } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { v1Send } from '../helpers/wire.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CHUNKS = Array.from({ length: 300 }, (_, i) => `        - 'chunk ${i} '`).join('\n');
const LONG = `description: A long artifact.\nmatch:\n  - keywords: [long]\nsteps:\n  - status: working\n  - artifact:\n      every: 1ms\n      chunks:\n${CHUNKS}\n  - status: completed\n`;

it("lets a forgotten task's log go, though the journal still shows its stream", async () => {
  const t = await startSimWith({ 'long.yaml': LONG }, { speed: 0, retention: { maxTasks: 5 } });
  try {
    const beyondTheCopy: WeakRef<object>[] = [];
    for (let i = 0; i < 20; i++) {
      const reader = await t.drive(
        postSse(`${t.url}/message:stream`, v1Send('a long one', { messageId: `l-${i}` })),
      );
      const events = await t.drive(reader.rest());
      expect(events).toHaveLength(303);
      const taskId = events[0]!.json.task.id as string;
      // The 250th event as the task's log keeps it (a read rebuilds it anew), past what the
      // journal's copy keeps (16 KiB of frames).
      const unfollow = t.sim.store.find(taskId)!.log.follow(249, {
        onEvent: (event, kept) => {
          if (event.seq === 250) beyondTheCopy.push(new WeakRef(kept));
        },
      });
      unfollow();
    }
    expect(t.sim.journal.list({ method: 'POST' })).toHaveLength(20);
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    // The first fifteen tasks are forgotten (the store keeps five); the feed's history keeps the
    // newest 1,000 events, all of the last tasks'.
    const kept = beyondTheCopy.slice(0, 10).filter((ref) => ref.deref() !== undefined);
    expect(kept).toHaveLength(0);
    // The tasks the store still keeps hold theirs: what is watched is what a log keeps.
    expect(beyondTheCopy.slice(15).filter((ref) => ref.deref() !== undefined)).toHaveLength(5);
  } finally {
    await t.close();
  }
});
