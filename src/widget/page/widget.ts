/**
 * The widget page's script: reads the public key from the page URL and the vocabulary from
 * the embedded config, then runs three modes over the /v1 API:
 * - find: name search as you type (debounced GET /v1/find);
 * - meet up: people added by map click or place name, POST /v1/search/ in POINT mode;
 * - route: a route drawn by clicking, POST /v1/search/ in PATH mode.
 * Any failure (limits, credit, origin, bad input) is shown in the notice banner in words.
 */
import { distanceMeters } from '../../geo/distance.js';
import { waitingWords, WidgetApi, WidgetApiError } from './api.js';
import { renderDetails } from './details.js';
import { setUpFairness, travelModeSelect, type TravelMode } from './fairness.js';
import { formatDistance, h } from './format.js';
import { keepFocus, type FocusPlace } from './keep-focus.js';
import { MapView, type LatLon, type MapCircle, type MapExtent, type MapLayers } from './map.js';
import { describeEmptyAnswer, offerWords } from './empty-answer.js';
import { metresField } from './metres-field.js';
import { readWeight, uniqueLabel, weightsProblem } from './person-weight.js';
import { placeProblem, unknownPlaceText } from './place-suggestions.js';
import { searchedCircles } from './searched-area.js';
import { skipCovered } from './skip-covered.js';
import { chosenTime, readPreferences, setTimeZone, setUpPreferences } from './preferences.js';
import { searchAreaZone } from './zoned-time.js';
import { renderResults, rowFromFind, rowFromSearch, type ResultRow } from './results.js';
import type { BasicDetails, FindResponse, MenuList, SearchResponse, SearchVocabulary } from './types.js';
import { numberedPersonLabel } from './person-label.js';

type Mode = 'find' | 'meet' | 'route';

interface Person extends LatLon {
  label: string;
  /** The weight field's text, searched as shown (see person-weight.ts). */
  weightText: string;
  travelMode?: TravelMode | undefined;
}

interface WidgetConfig {
  vocabulary: SearchVocabulary;
  /** Where most venues are (src/widget/page-html.ts); null or missing: the map's default view. */
  venueExtent?: MapExtent | null;
  tileUrl: string | null;
  tileAttribution: string | null;
  baseMapHref: string | null;
  placeLabelsHref: string | null;
}

const FIND_DEBOUNCE_MS = 300;
const SEARCH_DEBOUNCE_MS = 350;
const RESULT_LIMIT = 20;
/** The largest `offset` find and search accept (docs/search.md, docs/find.md). */
const MAX_OFFSET = 10_000;

/** One page of an answer: its rows, and how many venues the whole answer has. */
interface ResultPage {
  readonly rows: ResultRow[];
  readonly total: number;
}

/** A field where Escape has a meaning of its own (a search box clears, a text field may undo). */
function escapeBelongsToField(el: Element | null): boolean {
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  return el instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(el.type);
}

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

function start(): void {
  const config = JSON.parse(byId('widget-config').textContent ?? '{}') as WidgetConfig;
  const key = new URLSearchParams(location.search).get('key') ?? '';
  const notice = byId<HTMLDivElement>('notice');
  // while a call waits for the plan's rate limit, the banner says so (api.ts); the words go when it is sent
  const api = new WidgetApi(key, location.href, (seconds) => {
    if (seconds !== undefined) showNotice(waitingWords(seconds));
    else if (notice.dataset.waiting === 'true') showNotice(undefined);
    notice.dataset.waiting = String(seconds !== undefined);
  });
  const status = byId<HTMLParagraphElement>('results-status');
  // the page says "Loading the widget…" until this script runs (audit 73e F2: on a slow
  // network the form sat for 20 s doing nothing, with no word why)
  status.textContent = '';
  /** Says what an action changed (a person or route point added or removed) to screen readers. */
  const announcer = byId<HTMLParagraphElement>('announce');
  const announce = (words: string): void => {
    announcer.textContent = words;
  };
  const list = byId<HTMLOListElement>('results');
  const detailsPanel = byId<HTMLElement>('details');
  const searchButton = byId<HTMLButtonElement>('search-button');

  let mode: Mode = 'find';
  const people: Person[] = [];
  const route: LatLon[] = [];
  let rows: ResultRow[] = [];
  let lastSearch: SearchResponse | undefined;
  /** The discs `lastSearch` qualified its venues by (searched-area.ts). */
  let lastCircles: MapCircle[] = [];
  let inFlight: AbortController | undefined;
  let timer: number | undefined;
  let selectedId: string | undefined;
  /**
   * The page at `offset` of the answer shown (the same find or search, only `offset`
   * differs, so the order continues); undefined while no answer is shown.
   */
  let pageAt: ((offset: number, signal: AbortSignal) => Promise<ResultPage>) | undefined;

  const map = new MapView(byId<HTMLElement>('map'), {
    tileUrl: config.tileUrl,
    tileAttribution: config.tileAttribution,
    baseMapHref: config.baseMapHref,
    placeLabelsHref: config.placeLabelsHref,
    startExtent: config.venueExtent ?? null,
    onHover: (id) => highlight(id),
    onPick: (point) => {
      if (mode === 'meet') {
        const label = nextPersonLabel();
        addPerson({ ...point, label, weightText: '1' }, false);
        announce(`${label} added at ${point.lat.toFixed(4)}, ${point.lon.toFixed(4)}.`);
      } else if (mode === 'route') {
        route.push(point);
        routeChanged();
        announce(`Route point ${route.length} added. ${routeSummary.textContent ?? ''}`);
      }
    },
    onVenue: (id) => {
      const row = rows.find((r) => r.id === id);
      if (row !== undefined) void openDetails(row, undefined);
    },
  });

  // a re-render of the list or the markers keeps the keyboard on the same venue (audit 65b F1)
  const mapElement = byId<HTMLElement>('map');
  const focusPlaces: readonly FocusPlace[] = [
    {
      root: list,
      venueOf: (el) => el.closest<HTMLElement>('li[data-id]')?.dataset.id,
      target: (id) => {
        const same = id === undefined ? null : list.querySelector<HTMLElement>(`li[data-id="${CSS.escape(id)}"] > button.result-button`);
        const first = list.querySelector<HTMLElement>('li > button.result-button');
        if (same === null && first === null) list.tabIndex = -1; // an empty list: the list itself, not <body>
        return same ?? first ?? list;
      },
    },
    {
      root: mapElement,
      venueOf: (el) => map.venueOfElement(el),
      target: (id) => (id === undefined ? undefined : map.venueElement(id)) ?? mapElement,
    },
  ];

  const phoneWidth = window.matchMedia('(max-width: 720px)');
  /** At desktop width: no Tab stop of the map's part under the open panel (skip-covered.ts); at phone width it is modal. */
  const mapWrap = document.querySelector<HTMLElement>('.map-wrap');
  const skipUnderPanel = (): void => {
    if (mapWrap !== null) skipCovered(mapWrap, detailsPanel.hidden || phoneWidth.matches ? undefined : detailsPanel);
  };
  // markers are redrawn on each layer change, pan and zoom: checked again after each
  map.map.on('moveend zoomend', skipUnderPanel);
  new ResizeObserver(skipUnderPanel).observe(detailsPanel);

  /** Result `id` and its marker are highlighted together (hover or focus on either). */
  const highlight = (id: string | undefined): void => {
    for (const item of Array.from(list.querySelectorAll('li.highlighted'))) item.classList.remove('highlighted');
    if (id !== undefined) list.querySelector(`li[data-id="${CSS.escape(id)}"]`)?.classList.add('highlighted');
    map.highlight(id);
  };

  const showNotice = (message: string | undefined): void => {
    notice.dataset.waiting = 'false';
    notice.hidden = message === undefined;
    notice.textContent = message ?? '';
  };

  const fail = (err: unknown): void => {
    if ((err as Error).name === 'AbortError') return;
    showNotice(err instanceof WidgetApiError ? err.message : 'Something went wrong in the widget. Please reload the page.');
    status.textContent = '';
  };

  /**
   * A find or search that failed: the notice says why, and the list no longer shows the
   * previous query's answer (it would read as this query's).
   */
  const failSearch = (err: unknown): void => {
    if ((err as Error).name === 'AbortError') return;
    clearResults('The search failed; the reason is in the message above.');
    fail(err);
    status.textContent = 'The search failed; the reason is in the message above.';
  };

  const drawMap = (): void => {
    const layers: MapLayers = {
      venues: rows.map((r, i) => ({ id: r.id, name: r.name, lat: r.lat, lon: r.lon, rank: i + 1 })),
      people: mode === 'meet' ? people : [],
      route: mode === 'route' ? route : [],
      circles: [],
      selectedId,
    };
    if (mode === 'meet' && lastSearch !== undefined) {
      layers.centre = { lat: lastSearch.centerPoint.Lat, lon: lastSearch.centerPoint.Lon };
      layers.circles = lastCircles;
    }
    if (mode === 'route') layers.corridorMeters = corridorMeters();
    keepFocus(focusPlaces, () => map.setLayers(layers));
    skipUnderPanel();
  };

  const widenRadius = byId<HTMLButtonElement>('widen-radius');
  const showMore = byId<HTMLButtonElement>('show-more');
  const showRows = (next: ResultRow[], total: number): void => {
    rows = next;
    widenRadius.hidden = true;
    const more = Math.min(RESULT_LIMIT, total - rows.length);
    showMore.hidden = pageAt === undefined || more <= 0 || rows.length > MAX_OFFSET;
    showMore.textContent = `Show ${more} more`;
    const openWord = chosenTime() === undefined ? 'Open now' : 'Open then';
    const fair = mode === 'meet' ? fairness.modeFields(people.length).fairness : undefined;
    keepFocus(focusPlaces, () => {
      renderResults(list, rows, { mode, openWord, ...(fair === undefined ? {} : { fairness: fair }), onOpen: (row, button) => void openDetails(row, button), onHover: highlight });
      drawMap();
    });
    status.textContent = total === 0 ? 'No venues found.' : `${total} venue${total === 1 ? '' : 's'} found${total > rows.length ? `; showing the best ${rows.length}` : ''}.`;
  };

  const clearResults = (message: string): void => {
    // a search still in flight answers for what the page no longer shows
    inFlight?.abort();
    inFlight = undefined;
    lastSearch = undefined;
    pageAt = undefined;
    widenRadius.hidden = true;
    showMore.hidden = true;
    rows = [];
    status.textContent = message;
    // an earlier answer's error no longer describes what the page shows
    showNotice(undefined);
    keepFocus(focusPlaces, () => {
      list.replaceChildren();
      drawMap();
    });
  };

  const nextRequest = (): AbortSignal => {
    inFlight?.abort();
    inFlight = new AbortController();
    return inFlight.signal;
  };

  // ---- find by name
  const findInput = byId<HTMLInputElement>('find-q');
  const runFind = async (): Promise<void> => {
    const q = findInput.value.trim();
    if (q === '') return clearResults('');
    status.textContent = 'Searching…';
    try {
      const findPage = async (offset: number, signal: AbortSignal): Promise<ResultPage> => {
        const found = await api.get<FindResponse>('../find', { q, limit: RESULT_LIMIT, offset }, signal);
        return { rows: found.establishments.map(rowFromFind), total: found.totalFound };
      };
      const first = await findPage(0, nextRequest());
      showNotice(undefined);
      pageAt = findPage;
      showRows(first.rows, first.total);
      map.fitContent();
    } catch (err) {
      failSearch(err);
    }
  };
  findInput.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void runFind(), FIND_DEBOUNCE_MS);
  });

  // ---- search (meet up and route)
  // what these fields show is what is searched: a value they refuse stops the search
  const radius = metresField(byId<HTMLInputElement>('radius'), byId('radius-error'), 'radius');
  const corridor = metresField(byId<HTMLInputElement>('corridor'), byId('corridor-error'), 'distance from the route');
  const corridorMeters = (): number | undefined => corridor.read();

  const fairness = setUpFairness(byId<HTMLSelectElement>('fairness'), byId<HTMLSelectElement>('quorum'), () => scheduleSearch());

  /**
   * Runs the meet-up or route search. `asked`: the user asked for this search (the Search
   * button, a mode switch, the radius offer) rather than it following an edit. A search that
   * was asked for frames its answer. One that follows an edit does not move a route's view
   * at all: a route is drawn by clicking the map, and a view that moved after each click
   * would put the next point somewhere the user did not aim (issue 32). A meet-up's view
   * moves then only when people, circle or results would be hidden (people are clicked onto
   * the map too, but may also be added by place name, off screen).
   */
  const runSearch = async (asked: boolean): Promise<void> => {
    // a chosen opening time is read where the venues are: the people's or the route's zone
    if (mode !== 'find') setTimeZone(searchAreaZone(mode === 'meet' ? people : route));
    if (mode === 'meet' && people.length < 2) return clearResults(people.length === 0 ? 'Add two or more people to meet up.' : 'Add at least one more person.');
    if (mode === 'route' && route.length < 2) return clearResults('Add two or more route points on the map to draw a route.');
    if (mode === 'find') return;
    const maxDistance = mode === 'meet' ? radius.read() : corridorMeters();
    if (maxDistance === undefined) return clearResults(`No search until the ${mode === 'meet' ? 'radius' : 'distance from the route'} is valid.`);
    const weights = people.map((p) => readWeight(p.weightText, p.label).weight);
    if (mode === 'meet' && weights.some((w) => w === undefined)) return clearResults('No search until every weight is valid.');
    const weightsRefused = mode === 'meet' ? weightsProblem(weights as number[]) : undefined;
    if (weightsRefused !== undefined) return clearResults(weightsRefused);
    const fairFields = fairness.modeFields(people.length);
    const body = {
      locations:
        mode === 'meet'
          ? people.map((p, i) => ({
              lat: p.lat,
              lon: p.lon,
              label: p.label,
              ...(weights[i] === 1 ? {} : { weight: weights[i] }),
              ...(p.travelMode === undefined ? {} : { travelMode: p.travelMode }),
            }))
          : route.map((p) => ({ lat: p.lat, lon: p.lon })),
      mode:
        mode === 'meet'
          ? { mode: 'POINT', maxDistance, ...fairFields }
          : { mode: 'PATH', maxDistance },
      preferences: readPreferences(),
    };
    status.textContent = 'Searching…';
    try {
      const searchAt = (offset: number, signal: AbortSignal): Promise<SearchResponse> => api.post<SearchResponse>(`../search/?limit=${RESULT_LIMIT}&offset=${offset}`, body, signal);
      const result = await searchAt(0, nextRequest());
      showNotice(undefined);
      lastSearch = result;
      lastCircles = mode === 'meet' ? searchedCircles(result, fairFields.fairness, body.locations) : [];
      pageAt = async (offset, signal) => {
        const next = await searchAt(offset, signal);
        return { rows: next.establishments.map(rowFromSearch), total: next.totalResults };
      };
      showRows(result.establishments.map(rowFromSearch), result.totalResults);
      if (result.totalResults === 0) showEmptyAnswer(result, body.preferences.nonCompromise?.includes('chainPreference') === true);
      // follow the search: the people or the route, the circle or corridor and the results in
      // view; a meet-up that follows an edit moves the view only to show what would be hidden
      if (asked) map.fitContent();
      else if (mode === 'meet') map.fitContent(true);
    } catch (err) {
      failSearch(err);
    }
  };
  /** An empty answer in words, with the service's smallest radius that finds something as a button. */
  const showEmptyAnswer = (result: SearchResponse, independentOnly: boolean): void => {
    if (mode === 'find') return;
    const empty = describeEmptyAnswer(result, mode, independentOnly);
    status.textContent = empty.words;
    widenRadius.hidden = empty.offerMeters === undefined;
    if (empty.offerMeters !== undefined) {
      widenRadius.textContent = offerWords(empty.offerMeters);
      widenRadius.dataset.meters = String(empty.offerMeters);
    }
  };
  widenRadius.addEventListener('click', () => {
    radius.set(Number(widenRadius.dataset.meters));
    radius.input.focus(); // the button hides itself: keep the keyboard on the value it set
    window.clearTimeout(timer);
    void runSearch(true);
  });
  // the next page goes under the shown rows, ranks continuing; the map keeps its view (▣ fits)
  showMore.addEventListener('click', () => {
    const fetchPage = pageAt;
    if (fetchPage === undefined) return;
    const shown = rows.length;
    status.textContent = 'Loading more…';
    fetchPage(shown, nextRequest())
      .then((next) => {
        showNotice(undefined);
        showRows([...rows, ...next.rows], next.total);
        // keyboard and screen reader users continue at the first new result
        list.querySelectorAll<HTMLButtonElement>('li > button.result-button')[shown]?.focus();
      })
      .catch(fail);
  });
  const scheduleSearch = (): void => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void runSearch(false), SEARCH_DEBOUNCE_MS);
  };
  searchButton.addEventListener('click', () => {
    window.clearTimeout(timer);
    void runSearch(true);
  });
  // the message follows the field at once; the search after the usual pause
  radius.input.addEventListener('change', () => {
    radius.read();
    scheduleSearch();
  });
  corridor.input.addEventListener('change', () => {
    drawMap();
    scheduleSearch();
  });

  // ---- people
  const peopleList = byId<HTMLOListElement>('locations');
  const renderPeople = (): void => {
    peopleList.replaceChildren();
    people.forEach((person, i) => {
      const li = h('li', 'person-row');
      const who = h('span', 'who');
      who.append(h('span', 'person-name', person.label), h('span', 'coords', `${person.lat.toFixed(4)}, ${person.lon.toFixed(4)}`));
      const weightLabel = h('label', 'weight');
      const weight = h('input');
      weight.type = 'number';
      weight.min = '0';
      weight.step = '0.5';
      weight.value = person.weightText;
      weight.setAttribute('aria-label', `Weight of ${person.label}`);
      const weightError = h('p', 'field-error');
      weightError.id = `weight-error-${i}`;
      weight.setAttribute('aria-describedby', weightError.id);
      const showWeight = (): void => {
        const problem = readWeight(person.weightText, person.label).problem;
        weightError.hidden = problem === undefined;
        weightError.textContent = problem ?? '';
        if (problem === undefined) weight.removeAttribute('aria-invalid');
        else weight.setAttribute('aria-invalid', 'true');
      };
      showWeight();
      weight.addEventListener('change', () => {
        // badInput: the field holds text that is not a number, and its value reads as ''
        person.weightText = weight.validity.badInput ? 'NaN' : weight.value;
        showWeight();
        scheduleSearch();
      });
      weightLabel.append('weight ', weight);
      const travels = travelModeSelect(person.label, person.travelMode, (travelMode) => {
        person.travelMode = travelMode;
        scheduleSearch();
      });
      const remove = h('button', 'remove', 'Remove');
      remove.type = 'button';
      remove.setAttribute('aria-label', `Remove ${person.label}`);
      remove.addEventListener('click', () => {
        people.splice(i, 1);
        if (person === notePerson) clearPlaceNote();
        renderPeople();
        // the keyboard stays in the list: the next person's Remove, else the one before, else the place name
        const removes = peopleList.querySelectorAll<HTMLButtonElement>('button.remove');
        (removes[Math.min(i, removes.length - 1)] ?? byId<HTMLInputElement>('place-name')).focus();
        announce(`${person.label} removed.`);
        drawMap();
        scheduleSearch();
      });
      li.append(who, weightLabel, travels, remove, weightError);
      peopleList.append(li);
    });
    fairness.peopleChanged(people.length);
  };
  /** `Person k`, k the person's place in the list, or the next number no one has (after a removal). */
  const nextPersonLabel = (): string => {
    const taken = new Set(people.map((p) => p.label));
    let k = people.length + 1;
    while (taken.has(numberedPersonLabel(k))) k++;
    return numberedPersonLabel(k);
  };
  /** The list, the map and the search follow a person added or changed; `recentre`: the map centres on them. */
  const personChanged = (person: Person, recentre: boolean): void => {
    renderPeople();
    if (recentre) map.setView(person, Math.max(map.zoom, 14));
    drawMap();
    scheduleSearch();
  };
  const addPerson = (person: Person, recentre: boolean): void => {
    clearPlaceNote(); // it offers to change the person added before
    people.push(person);
    personChanged(person, recentre);
  };
  // an unknown place is said under the field, which is marked invalid (not in the API's words),
  // until the field is edited (the words no longer describe what it holds)
  const placeInput = byId<HTMLInputElement>('place-name');
  const placeError = byId<HTMLParagraphElement>('place-error');
  /** A button naming a place the service offers; `choose` is called with the name. */
  const placeButton = (name: string, choose: (name: string) => void): HTMLButtonElement => {
    const button = h('button', 'place-suggestion', name);
    button.type = 'button';
    button.addEventListener('click', () => choose(name));
    return button;
  };
  /** `suggestions`: the service's names for what was typed, as buttons that add that place. */
  const showPlaceProblem = (problem: string | undefined, suggestions: readonly string[] = []): void => {
    placeError.hidden = problem === undefined;
    placeError.textContent = problem ?? '';
    if (suggestions.length > 0) {
      placeError.append(' Did you mean ');
      suggestions.forEach((name, i) => {
        const button = placeButton(name, () => {
          placeInput.value = name;
          placeForm.requestSubmit();
          placeInput.focus();
        });
        placeError.append(i === 0 ? '' : i === suggestions.length - 1 ? ' or ' : ', ', button);
      });
      placeError.append('?');
    }
    if (problem === undefined) placeInput.removeAttribute('aria-invalid');
    else {
      placeInput.setAttribute('aria-invalid', 'true');
      // the focus stays in the field: the words (with any "Did you mean") are also said (audit 65b F2)
      announce(placeError.textContent ?? problem);
    }
  };
  // a name meaning several places (the answer's `otherPlaces`): the note under the field says
  // which was taken and offers the others, each replacing the person just added (`notePerson`,
  // weight and travel mode kept) rather than adding one; it goes when the field is edited,
  // another person is added or that person removed (audit 67c F3)
  const placeNote = byId<HTMLParagraphElement>('place-note');
  let notePerson: Person | undefined;
  const clearPlaceNote = (): void => {
    notePerson = undefined;
    placeNote.hidden = true;
    placeNote.replaceChildren();
  };
  /** Shows the note for `person`, added as `taken`; returns its words for screen readers. */
  const showOtherPlaces = (person: Person, taken: string, name: string, others: readonly string[]): string => {
    notePerson = person;
    placeNote.replaceChildren(`Took ${taken}. Another ${name}? `);
    others.forEach((other, i) => placeNote.append(i === 0 ? '' : ' ', placeButton(other, () => replacePlace(person, other))));
    placeNote.hidden = false;
    return `Took ${taken}. Another ${name}? ${others.join('; ')}.`;
  };
  const replacePlace = (person: Person, name: string): void => {
    void api
      .get<FindResponse>('../find', { q: name, location: name, limit: 1 })
      .then((found) => {
        const place = found.resolvedPlace;
        const at = people.indexOf(person);
        if (place === undefined || at < 0) return;
        clearPlaceNote();
        showNotice(undefined);
        const label = uniqueLabel(name, people.filter((p) => p !== person).map((p) => p.label));
        const moved: Person = { ...person, lat: place.Lat, lon: place.Lon, label };
        people[at] = moved;
        personChanged(moved, true);
        placeInput.focus(); // the note and its buttons are gone
        announce(`${person.label} is now ${label}, at ${place.Lat.toFixed(4)}, ${place.Lon.toFixed(4)}.`);
      })
      .catch(fail);
  };
  placeInput.addEventListener('input', () => {
    if (!placeError.hidden) showPlaceProblem(undefined);
    clearPlaceNote();
  });
  const placeForm = byId<HTMLFormElement>('place-form');
  placeForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const input = placeInput;
    const name = input.value.trim();
    if (name === '') return;
    // a find with `location` resolves the place name; its venues are not needed (limit 1)
    void api
      .get<FindResponse>('../find', { q: name, location: name, limit: 1 })
      .then((found) => {
        const place = found.resolvedPlace;
        if (place === undefined) return showPlaceProblem(unknownPlaceText(name, true));
        showPlaceProblem(undefined);
        showNotice(undefined);
        input.value = '';
        // a name meaning several places: the label names the area of the one taken (audit 67c F3)
        const others = place.otherPlaces ?? [];
        const taken = others.length > 0 && place.area !== undefined ? `${place.name}, ${place.area}` : place.name;
        const label = uniqueLabel(taken, people.map((p) => p.label));
        const person: Person = { lat: place.Lat, lon: place.Lon, label, weightText: '1' };
        addPerson(person, true);
        // as for a point added on the map: which place the name resolved to (audit 65b F3)
        const added = `${label} added at ${place.Lat.toFixed(4)}, ${place.Lon.toFixed(4)}.`;
        announce(others.length === 0 ? added : `${added} ${showOtherPlaces(person, taken, place.name, others)}`);
      })
      .catch((err: unknown) => {
        if (err instanceof WidgetApiError && err.code === 'unknown_place') {
          const problem = placeProblem(name, err.serverMessage, err.suggestions);
          showPlaceProblem(problem.text, problem.suggestions);
        }
        else fail(err);
      });
  });

  // ---- route
  const routeSummary = byId<HTMLParagraphElement>('route-summary');
  const routeChanged = (): void => {
    let length = 0;
    for (let i = 1; i < route.length; i++) length += distanceMeters(route[i - 1]!.lat, route[i - 1]!.lon, route[i]!.lat, route[i]!.lon);
    routeSummary.textContent =
      route.length === 0 ? 'No route points yet.' : `${route.length} route point${route.length === 1 ? '' : 's'}, ${formatDistance(length)} long.`;
    drawMap();
    scheduleSearch();
  };
  byId('route-undo').addEventListener('click', () => {
    route.pop();
    routeChanged();
    announce(`Last route point removed. ${routeSummary.textContent ?? ''}`);
  });
  byId('route-clear').addEventListener('click', () => {
    route.length = 0;
    routeChanged();
    announce('Route cleared.');
  });

  // ---- details
  let returnFocus: HTMLElement | undefined;
  /** What the detail panel covers at phone width: inert while it is open there, so focus and reading stay in it. */
  const covered = ['.top', '#notice', '.side', '.map-wrap'].map((selector) => document.querySelector<HTMLElement>(selector)).filter((e): e is HTMLElement => e !== null);
  const setDetailsModal = (): void => {
    const modal = !detailsPanel.hidden && phoneWidth.matches;
    for (const element of covered) element.inert = modal;
    skipUnderPanel();
    if (modal) {
      detailsPanel.setAttribute('role', 'dialog');
      detailsPanel.setAttribute('aria-modal', 'true');
    } else {
      detailsPanel.removeAttribute('role');
      detailsPanel.removeAttribute('aria-modal');
    }
  };
  phoneWidth.addEventListener('change', setDetailsModal);
  /** The calls of the venue whose details are being opened; aborted when another is opened or the panel closes. */
  let detailsCalls: AbortController | undefined;
  const closeDetails = (): void => {
    detailsCalls?.abort();
    detailsPanel.hidden = true;
    setDetailsModal();
    selectedId = undefined;
    drawMap();
    returnFocus?.focus();
  };
  const openDetails = async (row: ResultRow, button: HTMLButtonElement | undefined): Promise<void> => {
    returnFocus = button ?? (list.querySelector<HTMLElement>(`li[data-id="${CSS.escape(row.id)}"] button`) ?? undefined);
    selectedId = row.id;
    drawMap();
    // a venue the user left says nothing: its calls stop, and what they answer is not shown (audit 68a F1)
    detailsCalls?.abort();
    const calls = new AbortController();
    detailsCalls = calls;
    const { signal } = calls;
    try {
      const id = encodeURIComponent(row.id);
      // one after the other: on a plan of one call a second, the second waits for the next second (audit 67c F1)
      const details = await api.get<BasicDetails>(`../establishments/basic/${id}`, {}, signal);
      const menus = await api.get<MenuList>(`../establishments/menus/${id}`, {}, signal);
      if (signal.aborted) return;
      showNotice(undefined);
      renderDetails(detailsPanel, details, menus, closeDetails);
      setDetailsModal();
    } catch (err) {
      if (!signal.aborted) fail(err);
    }
  };
  // Escape closes the panel wherever the focus is (at phone width it may have left the panel for the
  // browser's own controls), except in a text field beside the open panel at desktop width: there
  // Escape is the field's own (a search box clears itself) and the panel stays (audit 65b F8)
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || detailsPanel.hidden) return;
    if (!phoneWidth.matches && escapeBelongsToField(document.activeElement)) return;
    closeDetails();
  });

  // ---- modes
  const panels: Record<Mode, HTMLElement> = { find: byId('find-panel'), meet: byId('meet-panel'), route: byId('route-panel') };
  const prefs = byId<HTMLDetailsElement>('prefs');
  const setMode = (next: Mode): void => {
    mode = next;
    for (const [name, panel] of Object.entries(panels)) panel.hidden = name !== next;
    prefs.hidden = next === 'find';
    searchButton.hidden = next === 'find';
    detailsCalls?.abort();
    detailsPanel.hidden = true;
    setDetailsModal();
    widenRadius.hidden = true;
    showMore.hidden = true;
    pageAt = undefined;
    selectedId = undefined;
    inFlight?.abort();
    window.clearTimeout(timer);
    if (next === 'find') {
      clearResults('');
      void runFind();
    } else void runSearch(true);
  };
  for (const radio of Array.from(document.querySelectorAll<HTMLInputElement>('input[name="mode"]'))) {
    radio.addEventListener('change', () => radio.checked && setMode(radio.value as Mode));
  }

  setUpPreferences(config.vocabulary, scheduleSearch);
  byId('zoom-in').addEventListener('click', () => map.zoomBy(1));
  byId('zoom-out').addEventListener('click', () => map.zoomBy(-1));
  byId('zoom-fit').addEventListener('click', () => map.fitContent());
  setMode('find');
  drawMap();
  document.body.dataset.ready = 'true';
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
