/**
 * Each client's calls, counted: `errors.onCall` fails a client's Nth call, so that one client's
 * calls do not use up the fault another is being tested with. Clients are told apart as the
 * verdicts tell them (X-Sim-Client, an API key, else address and User-Agent).
 */

/** Clients counted at most; past them, the one heard from least recently is forgotten. */
const MAX_CLIENTS = 10_000;

export class ClientCalls {
  private readonly counts = new Map<string, number>();

  /** Counts a call of `client` and says which of its calls this is (1 for its first). */
  next(client: string): number {
    const n = (this.counts.get(client) ?? 0) + 1;
    this.counts.delete(client);
    this.counts.set(client, n);
    if (this.counts.size > MAX_CLIENTS) this.counts.delete(this.counts.keys().next().value!);
    return n;
  }
}
