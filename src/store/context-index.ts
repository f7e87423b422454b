/**
 * The tasks of each context, oldest first, by scope and context id: a follow-up that names only its
 * context reads that context's tasks, not every task kept. A context of one task, the usual case,
 * holds the task itself rather than a list of one: the index costs a task one map entry.
 */
import type { Scope } from '../domain/scope.js';

interface InContext {
  readonly scope: Scope;
  readonly contextId: string;
}

export class ContextIndex<T extends InContext> {
  private readonly byScope = new Map<string, Map<string, T | T[]>>();

  add(item: T): void {
    let contexts = this.byScope.get(item.scope.key);
    if (!contexts) this.byScope.set(item.scope.key, (contexts = new Map()));
    const held = contexts.get(item.contextId);
    if (held === undefined) contexts.set(item.contextId, item);
    else if (Array.isArray(held)) held.push(item);
    else contexts.set(item.contextId, [held, item]);
  }

  remove(item: T): void {
    const contexts = this.byScope.get(item.scope.key);
    const held = contexts?.get(item.contextId);
    if (held === undefined) return;
    if (Array.isArray(held)) {
      const at = held.indexOf(item);
      if (at >= 0) held.splice(at, 1);
      if (held.length === 1) contexts!.set(item.contextId, held[0]!);
      return;
    }
    if (held !== item) return;
    contexts!.delete(item.contextId);
    if (contexts!.size === 0) this.byScope.delete(item.scope.key);
  }

  /** The context's tasks in `scope`, oldest first. */
  of(scope: Scope, contextId: string): T[] {
    const held = this.byScope.get(scope.key)?.get(contextId);
    return held === undefined ? [] : Array.isArray(held) ? [...held] : [held];
  }
}
