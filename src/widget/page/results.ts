/**
 * The results list: one button per venue with its rank (the number on the map), kind,
 * distance, open state (in words, not only colour) and, for searches, the score and its
 * parts and each person's travel estimate.
 */
import { formatDistance, formatScore, h, humanize, openState } from './format.js';
import type { FindEstablishment, MatchScore, SearchEstablishment } from './types.js';

/** What the list shows for one venue, from a find or a search result. */
export interface ResultRow {
  readonly id: string;
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
  readonly kind: string | undefined;
  readonly address: string | undefined;
  readonly distanceMeters: number | undefined;
  readonly isOpen: boolean;
  /** Whether the venue has opening hours at all (an empty `regularOpeningHours`: unknown, not closed). */
  readonly hoursKnown: boolean;
  readonly score: MatchScore | undefined;
  readonly alongRouteMeters: number | undefined;
  readonly travel: Readonly<Record<string, { distanceMeters: number; durationMinutes: number }>> | undefined;
  /** The group's trips to this venue (fair meet-ups, issue 15), when the service reports them. */
  readonly group: GroupSummary | undefined;
}

/** A search result's `group` (issue 15): the counted people's trips, minutes, and who was counted. */
export interface GroupSummary {
  readonly maxMinutes: number;
  readonly totalMinutes: number;
  readonly spreadMinutes: number;
  /** Labels (as in `travel`) of the people counted; older services do not send it. */
  readonly counted?: readonly string[];
}

export function rowFromFind(e: FindEstablishment): ResultRow {
  return {
    id: e.id,
    name: e.displayName || e.name,
    lat: e.location.coordinates[0],
    lon: e.location.coordinates[1],
    kind: e.primaryGenre,
    address: e.formattedAddress,
    distanceMeters: e.distanceMeters,
    isOpen: e.isOpen,
    hoursKnown: e.regularOpeningHours.length > 0,
    score: undefined,
    alongRouteMeters: undefined,
    travel: undefined,
    group: undefined,
  };
}

export function rowFromSearch(e: SearchEstablishment): ResultRow {
  // `group` is read loosely: older services do not send it
  const group = (e as SearchEstablishment & { group?: GroupSummary }).group;
  return { ...rowFromFind(e), distanceMeters: e.distanceMeters, score: e.matchScore, alongRouteMeters: e.alongRouteMeters, travel: e.travel, group };
}

const SCORE_PARTS: readonly [keyof MatchScore, string][] = [
  ['genreMatch', 'Genre'],
  ['establishmentFiltersMatch', 'Kinds'],
  ['catersFiltersMatch', 'Dietary'],
  ['openingMatch', 'Opening'],
  ['vibesMatch', 'Vibes'],
  ['chainMatch', 'Independent'],
];

function scoreBlock(score: MatchScore): HTMLElement {
  const block = h('div', 'score');
  block.append(h('span', 'score-total', `Score ${formatScore(score.total)}`));
  const parts = h('dl', 'score-parts');
  // each name and value in a div of its own (HTML allows it in a dl): the pair wraps as one, never apart
  for (const [key, label] of SCORE_PARTS) {
    const pair = h('div');
    pair.append(h('dt', '', label), h('dd', score[key] < 1 ? 'partial' : '', formatScore(score[key])));
    parts.append(pair);
  }
  block.append(parts);
  return block;
}

/** Minutes as the service sends them (to 0.1 min): "14 min", "14.5 min". */
function minutesText(m: number): string {
  return `${Math.round(m * 10) / 10} min`;
}

/**
 * The group summary as a labelled description list: the longest trip, the total, the
 * spread, and who was counted ("Everyone", or the labels of the best placed when a quorum
 * is asked). `people`: how many people the search had.
 */
function groupBlock(group: GroupSummary, people: number): HTMLElement {
  const list = h('dl', 'group-summary');
  list.setAttribute('aria-label', 'Trips for the group');
  const counted = group.counted === undefined || group.counted.length === people ? 'Everyone' : group.counted.join(', ');
  const facts: readonly [string, string, string][] = [
    ['max', 'Longest trip', minutesText(group.maxMinutes)],
    ['total', 'In total', minutesText(group.totalMinutes)],
    ['spread', 'Trips differ by', minutesText(group.spreadMinutes)],
    ['counted', 'Counted', counted],
  ];
  for (const [key, label, value] of facts) {
    const fact = h('div', `group-${key}`);
    fact.append(h('dt', '', label), h('dd', '', value));
    list.append(fact);
  }
  return list;
}

/** Each person's travel as a short list (one line each, wrapping on a phone). */
function travelBlock(travel: NonNullable<ResultRow['travel']>): HTMLElement[] {
  const entries = Object.entries(travel);
  if (entries.length === 0) return [];
  const list = h('ul', 'travel');
  list.setAttribute('aria-label', 'Travel for each person');
  for (const [who, t] of entries) {
    const line = h('li');
    line.append(h('span', 'who', who), ` ${Math.round(t.durationMinutes)} min`, h('span', 'muted', ` (${formatDistance(t.distanceMeters)})`));
    list.append(line);
  }
  return [list];
}

/** What a meet-up result's distanceMeters measures, by fairness (docs/search.md). */
const MEET_DISTANCE_WORDS = {
  CENTRE: 'from the centre',
  MIN_MAX: 'for the farthest counted person',
  MIN_TOTAL: 'on average for those counted',
} as const;

export function renderResults(
  list: HTMLOListElement,
  rows: readonly ResultRow[],
  options: {
    readonly mode: 'find' | 'meet' | 'route';
    readonly openWord: string;
    /** Meet-up's ranking: a fair mode's distanceMeters is the farthest (MIN_MAX) or the average (MIN_TOTAL) counted trip, not a distance from the centre. */
    readonly fairness?: 'CENTRE' | 'MIN_MAX' | 'MIN_TOTAL';
    readonly onOpen: (row: ResultRow, button: HTMLButtonElement) => void;
    /** The pointer or focus entered a result (its id) or left it (undefined): the map highlights its marker. */
    readonly onHover: (id: string | undefined) => void;
  },
): void {
  list.replaceChildren();
  rows.forEach((row, i) => {
    const item = h('li', 'result');
    item.dataset.id = row.id;
    item.addEventListener('mouseenter', () => options.onHover(row.id));
    item.addEventListener('mouseleave', () => options.onHover(undefined));
    item.addEventListener('focusin', () => options.onHover(row.id));
    item.addEventListener('focusout', () => options.onHover(undefined));
    const button = h('button', 'result-button');
    button.type = 'button';
    const title = h('span', 'result-title');
    const name = h('span', 'name', row.name);
    name.dir = 'auto'; // a right-to-left name keeps its own order beside the page's left-to-right words
    title.append(h('span', 'rank', String(i + 1)), name);
    button.append(title);
    const facts = h('span', 'facts');
    if (row.kind !== undefined) facts.append(h('span', 'kind', humanize(row.kind)));
    if (row.distanceMeters !== undefined) {
      const where = options.mode === 'route' ? 'from the route' : options.mode === 'meet' ? MEET_DISTANCE_WORDS[options.fairness ?? 'CENTRE'] : 'away';
      facts.append(h('span', 'distance', `${formatDistance(row.distanceMeters)} ${where}`));
    }
    if (row.alongRouteMeters !== undefined) facts.append(h('span', 'along', `${formatDistance(row.alongRouteMeters)} along the route`));
    const state = openState(row.isOpen, row.hoursKnown, { open: options.openWord, closed: 'Closed' });
    facts.append(h('span', state.className, state.text));
    button.append(facts);
    if (row.address !== undefined && options.mode === 'find') button.append(h('span', 'address', row.address));
    // the button's name is its content (rank, name, kind, distance, open state), so a screen
    // reader announces what is shown; what pressing it does is said after, unseen
    button.append(h('span', 'sr-only', ': show details and menu'));
    button.addEventListener('click', () => options.onOpen(row, button));
    item.append(button);
    if (row.score !== undefined) item.append(scoreBlock(row.score));
    if (row.group !== undefined && options.mode === 'meet') item.append(groupBlock(row.group, Object.keys(row.travel ?? {}).length));
    if (row.travel !== undefined && options.mode === 'meet') item.append(...travelBlock(row.travel));
    list.append(item);
  });
}
