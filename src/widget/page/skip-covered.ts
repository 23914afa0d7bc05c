/**
 * At desktop width the detail panel is drawn over the map's right part (it is not modal there),
 * and what it covers (map buttons, the credit link, venue markers, the map itself at a narrow
 * two-column width) would keep its Tab stops, focused with no visible ring (audit 65b F7).
 * `skipCovered` takes every focusable element of `scope` whose centre lies under `cover` out of
 * the Tab order (tabindex -1), and gives back the stops it took when they are no longer covered
 * (or `cover` is undefined). Invariant: an element it changed carries `data-covered-tabindex`,
 * its own tabindex attribute before ('' when it had none), and nothing else changes it.
 */
const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';
const SAVED = 'data-covered-tabindex';

export function skipCovered(scope: HTMLElement, cover: HTMLElement | undefined): void {
  const box = cover?.getBoundingClientRect();
  for (const el of Array.from(scope.querySelectorAll<HTMLElement>(FOCUSABLE))) {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const covered = box !== undefined && r.width > 0 && x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
    const saved = el.getAttribute(SAVED);
    if (covered && saved === null) {
      el.setAttribute(SAVED, el.getAttribute('tabindex') ?? '');
      el.tabIndex = -1;
    } else if (!covered && saved !== null) {
      if (saved === '') el.removeAttribute('tabindex');
      else el.setAttribute('tabindex', saved);
      el.removeAttribute(SAVED);
    }
  }
}
