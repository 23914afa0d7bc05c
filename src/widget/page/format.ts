/** Text the widget shows: distances, money, labels made from vocabulary values. */

/** Metres as "350 m" below 1 km, else "1.2 km" (one decimal below 10 km). */
export function formatDistance(meters: number): string {
  if (meters < 1000) return `${Math.round(meters)} m`;
  return meters < 10_000 ? `${(meters / 1000).toFixed(1)} km` : `${Math.round(meters / 1000)} km`;
}

/** Pence (integer minor units) as pounds: 2195 -> "£21.95". */
export function formatPounds(pence: number): string {
  return `£${(pence / 100).toFixed(2)}`;
}

/** A vocabulary value as words: "glutenFree" -> "Gluten free", "coffee_shop" -> "Coffee shop". */
export function humanize(value: string): string {
  const words = value
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A venue's open state in words and its class (`open-state open|closed|unknown`). The
 * service's `isOpen` is false for a venue whose hours are unknown too (no
 * `regularOpeningHours`: docs/hours.md, "Unknown is not closed"), so `hoursKnown` tells a
 * closed venue from one whose hours nobody gave.
 */
export function openState(isOpen: boolean, hoursKnown: boolean, words: { readonly open: string; readonly closed: string }): { readonly className: string; readonly text: string } {
  if (isOpen) return { className: 'open-state open', text: words.open };
  return hoursKnown ? { className: 'open-state closed', text: words.closed } : { className: 'open-state unknown', text: 'Hours unknown' };
}

export function formatScore(part: number): string {
  return part.toFixed(2);
}

/** Creates an element with optional class and text. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className !== undefined && className !== '') node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
