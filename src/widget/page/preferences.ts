/**
 * The preference toggles, built from the embedded vocabulary, and the `preferences` object of
 * a search request read back from them. Dietary needs, "open" and "independent only" are
 * hard requirements (listed in `nonCompromise`): a person asking for gluten-free or open now
 * does not want the others. Kinds and vibes are soft: they raise a venue's score.
 */
import { h, humanize } from './format.js';
import type { Preferences, SearchVocabulary } from './types.js';

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

export function setUpPreferences(vocabulary: SearchVocabulary, onChange: () => void): void {
  fillChoices(document.getElementById('pref-kinds')!, 'kind', vocabulary.establishmentFilters, onChange);
  fillChoices(document.getElementById('pref-diet')!, 'diet', vocabulary.catersFilters, onChange);
  fillChoices(document.getElementById('pref-vibes')!, 'vibe', vocabulary.vibes, onChange);
  const openMode = document.getElementById('open-mode') as HTMLSelectElement;
  const openAt = document.getElementById('open-at') as HTMLInputElement;
  openMode.addEventListener('change', () => {
    openAt.hidden = openMode.value !== 'at';
    if (openMode.value === 'at' && openAt.value === '') {
      const soon = new Date(Date.now() + 3_600_000);
      soon.setMinutes(0, 0, 0);
      const local = new Date(soon.getTime() - soon.getTimezoneOffset() * 60_000);
      openAt.value = local.toISOString().slice(0, 16);
    }
    onChange();
  });
  openAt.addEventListener('change', onChange);
  document.getElementById('independent')!.addEventListener('change', onChange);
}

/** The chosen time as an ISO UTC instant, when "open at a chosen time" is selected. */
export function chosenTime(): string | undefined {
  const openMode = (document.getElementById('open-mode') as HTMLSelectElement).value;
  const value = (document.getElementById('open-at') as HTMLInputElement).value;
  if (openMode !== 'at' || value === '') return undefined;
  const instant = new Date(value); // datetime-local is the browser's local time
  return Number.isNaN(instant.getTime()) ? undefined : instant.toISOString().replace(/\.\d{3}Z$/, 'Z');
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
