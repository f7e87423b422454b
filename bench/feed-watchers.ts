/**
 * Watchers of `/_sim/feed` that never read, for the hostile soak (bench/soak-process.ts): each
 * WebSocket is paused as soon as it opens, so the simulator's messages pile up in front of it until
 * it is dropped as too slow (docs/limits.md: 1013 past 1 MiB waiting). A paused watcher cannot hear
 * the close frame, which waits behind what it never read: it finds out it was dropped when a ping
 * (every 30 virtual seconds) can no longer be written, once the simulator has let the connection go,
 * and connects again. `ws`, the library the feed itself is served with, is the client.
 */
import WebSocket from 'ws';
import type { AgentClock } from './hostile-agent.js';

export interface WatcherCount {
  /** Connections opened (each then paused). */
  connected: number;
  /** Connections the simulator let go, seen when a ping could no longer be written. */
  dropped: number;
  /** Upgrades refused or failed. */
  failed: number;
}

const PING_EVERY_MS = 30_000;

export class FeedWatchers {
  readonly count: WatcherCount = { connected: 0, dropped: 0, failed: 0 };
  private readonly open = new Set<WebSocket>();
  private closed = false;

  constructor(
    private readonly url: string,
    watchers: number,
    private readonly clock: AgentClock,
  ) {
    for (let i = 0; i < watchers; i++) this.watch();
  }

  close(): void {
    this.closed = true;
    for (const ws of this.open) ws.terminate();
  }

  private watch(): void {
    if (this.closed) return;
    const ws = new WebSocket(`${this.url.replace(/^http/, 'ws')}/_sim/feed`);
    this.open.add(ws);
    let opened = false;
    let timer: { cancel(): void } | undefined;
    const ping = () => {
      if (ws.readyState !== WebSocket.OPEN) return;
      ws.ping();
      timer = this.clock.setTimer(PING_EVERY_MS, ping);
    };
    ws.once('open', () => {
      opened = true;
      this.count.connected++;
      ws.pause();
      timer = this.clock.setTimer(PING_EVERY_MS, ping);
    });
    // A write to a connection the simulator has let go fails here; 'close' follows.
    ws.on('error', () => {});
    ws.once('close', () => {
      timer?.cancel();
      this.open.delete(ws);
      if (this.closed) return;
      if (opened) this.count.dropped++;
      else this.count.failed++;
      this.watch();
    });
  }
}
