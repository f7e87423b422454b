/** "Did you mean ...?" for a name that is not one of a known few. */

/**
 * The known name closest to `input`, if it is close enough to be a slip: case and a missing or
 * extra `Error` suffix do not count, and at most a third of the letters may differ.
 * @example closestName('InvalidParams', ['InvalidParamsError', 'InternalError']) // 'InvalidParamsError'
 */
export function closestName(input: string, names: readonly string[]): string | undefined {
  const key = normalize(input);
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(key, normalize(name));
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(key.length / 3)) ? best.name : undefined;
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/error$/, '');
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}
