/** Sizes as flags and messages write them: `4MiB`, `512KiB`, `1GiB`, or a number of bytes. */

const UNIT_BYTES: Readonly<Record<string, number>> = Object.freeze({
  b: 1,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
});
const SIZE = /^\s*(\d+(?:\.\d+)?)\s*(b|kib|mib|gib)?\s*$/i;

/** Bytes for a size, or undefined when the input is not one. */
export function parseBytes(input: unknown): number | undefined {
  if (typeof input === 'number') return Number.isSafeInteger(input) && input >= 0 ? input : undefined;
  if (typeof input !== 'string') return undefined;
  const match = SIZE.exec(input);
  if (!match) return undefined;
  const bytes = Math.round(Number(match[1]) * UNIT_BYTES[(match[2] ?? 'b').toLowerCase()]!);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** `4194304` → `"4MiB"`, `1536` → `"1.5KiB"`, for messages and help texts. */
export function formatBytes(bytes: number): string {
  for (const unit of ['GiB', 'MiB', 'KiB'] as const) {
    const size = UNIT_BYTES[unit.toLowerCase()]!;
    if (bytes >= size) return `${Math.round((bytes / size) * 10) / 10}${unit}`;
  }
  return `${bytes}B`;
}

/** What a copy of a request's headers holds, approximately, in bytes: its names and values. */
export function headersBytes(headers: Record<string, string>): number {
  let bytes = 0;
  for (const name in headers) bytes += name.length + headers[name]!.length;
  return bytes;
}
