/**
 * Re-rendering the results list or the map's venue markers removes the element that held the
 * focus, and the browser drops the focus to <body> (audit 65b F1: a keyboard user is sent back
 * to the page's start, a screen reader says nothing). `keepFocus` runs a re-render and, only
 * when the focus was inside one of `places` and that element is gone, gives the focus to the
 * same venue's new element in that place, else to the place's fallback. A focus that survived
 * the re-render (or was outside every place) is never moved.
 */
export interface FocusPlace {
  /** The container whose children are re-rendered (the list, the map). */
  readonly root: HTMLElement;
  /** The venue id the focused element `el` (inside `root`) stands for, if any. */
  readonly venueOf: (el: HTMLElement) => string | undefined;
  /** Where the focus goes after the re-render: venue `id`'s element, else a fallback inside `root` (or `root`). */
  readonly target: (id: string | undefined) => HTMLElement;
}

export function keepFocus(places: readonly FocusPlace[], render: () => void): void {
  const before = document.activeElement;
  const place = before instanceof HTMLElement ? places.find((p) => p.root !== before && p.root.contains(before)) : undefined;
  const id = place === undefined ? undefined : place.venueOf(before as HTMLElement);
  render();
  if (place === undefined || (before as HTMLElement).isConnected) return;
  // the focused element was removed: the browser has put the focus on <body> (or nowhere)
  if (document.activeElement !== null && document.activeElement !== document.body) return;
  place.target(id).focus({ preventScroll: false });
}
