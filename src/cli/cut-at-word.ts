/**
 * A message quoted inside another one, kept short: in full when it fits `max` characters,
 * else cut at the last space before the limit (never inside a word) and ended with "…".
 */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(' ', max - 1);
  const cut = space > 0 ? text.slice(0, space) : text.slice(0, max - 1);
  return `${cut.replace(/[\s,;:(]+$/, '')}…`;
}
