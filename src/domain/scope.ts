/**
 * Where a task lives: under which agent (none for the root agent), in which gateway workspace, for
 * which REST tenant. A task is visible only to calls in the same scope. The control plane reads the
 * parts; the store and the task seeds compare and hash the key, built once per scope.
 */

export interface Place {
  /** The defined agent, or undefined for the root agent. */
  agent?: string;
  workspace?: string;
  tenant?: string;
}

export interface Scope extends Readonly<Place> {
  /**
   * `agent:explore|workspace:ws-1`, `tenant:acme`, or `""` for the root: one string per scope,
   * with `|` and `\` in names escaped, so two scopes never share a key.
   */
  readonly key: string;
}

export function scopeOf(place: Place): Scope {
  const parts: string[] = [];
  if (place.agent !== undefined) parts.push(`agent:${escape(place.agent)}`);
  if (place.workspace !== undefined) parts.push(`workspace:${escape(place.workspace)}`);
  if (place.tenant !== undefined) parts.push(`tenant:${escape(place.tenant)}`);
  // Set one by one: `{ ...place, key }` gave each scope a hidden class of its own (Node 20).
  const scope: Place & { key?: string } = {};
  if (place.agent !== undefined) scope.agent = place.agent;
  if (place.workspace !== undefined) scope.workspace = place.workspace;
  if (place.tenant !== undefined) scope.tenant = place.tenant;
  scope.key = parts.join('|');
  return Object.freeze(scope as Scope);
}

export const ROOT_SCOPE: Scope = scopeOf({});

/** The parts of a scope, without its key: what records and the feed show. */
export function placeOf(scope: Scope): Place {
  const place: Place = {};
  if (scope.agent !== undefined) place.agent = scope.agent;
  if (scope.workspace !== undefined) place.workspace = scope.workspace;
  if (scope.tenant !== undefined) place.tenant = scope.tenant;
  return place;
}

function escape(name: string): string {
  return name.replace(/[\\|]/g, '\\$&');
}
