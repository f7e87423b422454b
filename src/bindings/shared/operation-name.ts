/**
 * How a REST call is named in its records (`POST /message:send`): one string per method and
 * route, made once, rather than one built per call and kept with every exchange the journal and
 * the verdicts hold. The method is one the route allows and the path a route's pattern, so the
 * names are few.
 */
const names = new Map<string, Map<string, string>>();

export function operationName(method: string, path: string): string {
  let byPath = names.get(method);
  if (!byPath) names.set(method, (byPath = new Map()));
  let name = byPath.get(path);
  if (name === undefined) byPath.set(path, (name = `${method} ${path}`));
  return name;
}
