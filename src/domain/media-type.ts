/**
 * Media type negotiation (§3.2.1, §4.1): the modes a side accepts against the media type of what
 * the other sends. A mode may be a wildcard: a family such as `image/*`, any type at all, or a
 * bare `text`, which older cards wrote for "any text".
 */

/**
 * Whether `mode` accepts `type`; parameters such as `; charset=utf-8` are ignored.
 * @example mediaTypeMatches('image/*', 'image/png') // true
 */
export function mediaTypeMatches(mode: string, type: string): boolean {
  const want = mode.split(';')[0]!.trim().toLowerCase();
  const got = type.split(';')[0]!.trim().toLowerCase();
  if (want === '*/*' || want === '*' || want === got) return true;
  const family = want.endsWith('/*') ? want.slice(0, -1) : want.includes('/') ? undefined : `${want}/`;
  return family !== undefined && got.startsWith(family);
}

/** Whether any of `modes` accepts `type`. */
export function accepts(modes: readonly string[], type: string): boolean {
  return modes.some((mode) => mediaTypeMatches(mode, type));
}

/**
 * The first of `variants` the client accepts: with no `acceptedOutputModes` (or an empty list),
 * the first one; undefined when it accepts none. A variant without a media type suits anyone.
 */
export function chooseVariant<V extends { mediaType?: string }>(
  variants: readonly V[],
  acceptedOutputModes: readonly string[] | undefined,
): V | undefined {
  if (!acceptedOutputModes?.length) return variants[0];
  return variants.find((v) => v.mediaType === undefined || accepts(acceptedOutputModes, v.mediaType));
}
