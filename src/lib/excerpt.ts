/**
 * The start of a text someone else wrote (a client's token, an agent's body), as a message or a
 * description quotes it: `max` characters, and `…` when there were more.
 */
export function excerpt(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
