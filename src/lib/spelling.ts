/** "Did you mean ...?" for a name that is not one of a known few. */

/**
 * The known name closest to `input`, if it is close enough to be a slip: case and a missing or
 * extra `Error` suffix do not count, and at most a third of the letters may differ.
 * @example closestName('InvalidParams', ['InvalidParamsError', 'InternalError']) // 'InvalidParamsError'
 */
export function closestName(input: string, names: readonly string[]): string | undefined {
  const key = normalize(input);
  let best: { name: string; distance: number; prefix: number } | undefined;
  for (const name of names) {
    const distance = editDistance(key, normalize(name));
    // Between names as near, the one that starts as the input does: `sped` is `speed`, not `seed`.
    const prefix = commonPrefix(key, normalize(name));
    if (!best || distance < best.distance || (distance === best.distance && prefix > best.prefix))
      best = { name, distance, prefix };
  }
  return best && best.distance <= Math.max(2, Math.floor(key.length / 3)) ? best.name : undefined;
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/error$/, '');
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

/**
 * Edit distance where swapping two neighbouring letters is one edit, as typing slips them
 * (optimal string alignment): `prot` is one from `port`, as `sped` is from `speed`.
 */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      let cost = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        cost = Math.min(cost, before[j - 2]! + 1);
      next[j] = cost;
    }
    before = row;
    row = next;
  }
  return row[b.length]!;
}
