/**
 * The preference toggles, built from the embedded vocabulary, and the `preferences` object of
 * a search request read back from them. Dietary needs, "open" and "independent only" are
 * hard requirements (listed in `nonCompromise`): a person asking for gluten-free or open now
 * does not want the others. Kinds and vibes are soft: they raise a venue's score.
 */
import { h, humanize } from './format.js';
import type { Preferences, SearchVocabulary } from './types.js';
import { deviceZone, wallTimeIn, wallTimeToUtc, zoneWords } from './zoned-time.js';

function fillChoices(fieldset: HTMLElement, name: string, values: readonly string[], onChange: () => void): void {
  const list = h('div', 'choice-list');
  for (const value of values) {
    const label = h('label', 'check');
    const input = h('input');
    input.type = 'checkbox';
    input.name = name;
    input.value = value;
    input.addEventListener('change', onChange);
    label.append(input, ` ${humanize(value)}`);
    list.append(label);
  }
  fieldset.append(list);
}

function checked(name: string): string[] {
  return Array.from(document.querySelectorAll<HTMLInputElement>(`input[name="${name}"]:checked`)).map((i) => i.value);
}

/**
 * The zone the chosen time is read in: the search area's (zoned-time.ts), else the device's
 * until there is a person or a route point. Shown under the field, so nobody has to guess.
 */
let readZone: { zone: string; ofArea: boolean } = { zone: deviceZone(), ofArea: false };

/** Sets the zone "open at a chosen time" is read in: the search area's, or null for the device's. */
export function setTimeZone(areaZone: string | null): void {
  readZone = areaZone === null ? { zone: deviceZone(), ofArea: false } : { zone: areaZone, ofArea: true };
  showZone();
}

/** The note under the field: the zone in words, with its offset on the chosen date (today's before one is chosen). */
function showZone(): void {
  const note = document.getElementById('open-at-zone');
  if (note === null) return;
  const chosen = (document.getElementById('open-at') as HTMLInputElement | null)?.value ?? '';
  const words = zoneWords(readZone.zone, wallTimeToUtc(chosen, readZone.zone) ?? Date.now());
  note.textContent = readZone.ofArea ? `Times are ${words}, where the venues are.` : `Times are your device's time zone, ${words}, until a place is chosen.`;
}

export function setUpPreferences(vocabulary: SearchVocabulary, onChange: () => void): void {
  fillChoices(document.getElementById('pref-kinds')!, 'kind', vocabulary.establishmentFilters, onChange);
  fillChoices(document.getElementById('pref-diet')!, 'diet', vocabulary.catersFilters, onChange);
  fillChoices(document.getElementById('pref-vibes')!, 'vibe', vocabulary.vibes, onChange);
  const openMode = document.getElementById('open-mode') as HTMLSelectElement;
  const openAt = document.getElementById('open-at') as HTMLInputElement;
  const zoneNote = document.getElementById('open-at-zone') as HTMLParagraphElement;
  setTimeZone(null);
  openMode.addEventListener('change', () => {
    openAt.hidden = openMode.value !== 'at';
    zoneNote.hidden = openAt.hidden;
    // the next whole hour on the clocks the time is read in
    if (openMode.value === 'at' && openAt.value === '') openAt.value = `${wallTimeIn(Date.now() + 3_600_000, readZone.zone).slice(0, 13)}:00`;
    showZone();
    onChange();
  });
  openAt.addEventListener('input', showZone);
  openAt.addEventListener('change', () => {
    showZone();
    onChange();
  });
  document.getElementById('independent')!.addEventListener('change', onChange);
}

/** The chosen time as an ISO UTC instant, read in the zone `setTimeZone` set, when "open at a chosen time" is selected. */
export function chosenTime(): string | undefined {
  const openMode = (document.getElementById('open-mode') as HTMLSelectElement).value;
  const value = (document.getElementById('open-at') as HTMLInputElement).value;
  if (openMode !== 'at' || value === '') return undefined;
  const instant = wallTimeToUtc(value, readZone.zone);
  return instant === undefined ? undefined : new Date(instant).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function readPreferences(): Preferences {
  const prefs: Preferences = {};
  const hard: NonNullable<Preferences['nonCompromise']> = [];
  const kinds = checked('kind');
  const diet = checked('diet');
  const vibes = checked('vibe');
  if (kinds.length > 0) prefs.establishmentFilters = kinds;
  if (diet.length > 0) {
    prefs.catersFilters = diet;
    hard.push('catersFilters');
  }
  if (vibes.length > 0) prefs.vibes = vibes;
  const openMode = (document.getElementById('open-mode') as HTMLSelectElement).value;
  if (openMode === 'now') {
    prefs.openingConditions = { state: 'OPEN' };
    hard.push('openingConditions');
  } else if (openMode === 'at') {
    const atTime = chosenTime();
    prefs.openingConditions = atTime === undefined ? { state: 'OPEN' } : { state: 'OPEN', atTime };
    hard.push('openingConditions');
  }
  if ((document.getElementById('independent') as HTMLInputElement).checked) {
    prefs.chainPreference = 'PREFER_INDEPENDENT';
    hard.push('chainPreference');
  }
  if (hard.length > 0) prefs.nonCompromise = hard;
  return prefs;
}
