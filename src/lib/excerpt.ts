/**
 * The start of a text someone else wrote (a client's token, an agent's body), as a message or a
 * description quotes it: `max` characters, and `…` when there were more. For a message of the
 * moment: what is kept is {@link clip}ped.
 */
export function excerpt(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The first `max` characters, copied out: V8 makes a slice of a long string a view that keeps the
 * whole string alive, so a clipped 4 MiB body would cost 4 MiB, not 16 KiB.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Buffer.from(text.slice(0, max), 'utf8').toString('utf8');
  return `${head}… (${text.length - max} more characters)`;
}
