/**
 * Meet-up's fairness controls (issue 15): how venues are ranked for the group (`mode.fairness`:
 * CENTRE, MIN_MAX or MIN_TOTAL), how many of the people count (`mode.quorum`), and how each
 * person travels (`locations[].travelMode`). Defaults send nothing, so a request from a page
 * where nobody touched them is exactly the plain POINT search.
 */
import { h } from './format.js';

export type Fairness = 'CENTRE' | 'MIN_MAX' | 'MIN_TOTAL';
export type TravelMode = 'WALK' | 'BICYCLE' | 'DRIVE' | 'TRANSIT';

/** Travel modes as the person-row select offers them ('' is the service's default estimate). */
const TRAVEL_MODES: readonly (readonly [TravelMode | '', string])[] = [
  ['', 'Any way'],
  ['WALK', 'Walks'],
  ['BICYCLE', 'Cycles'],
  ['DRIVE', 'Drives'],
  ['TRANSIT', 'Public transport'],
];

/** The select for one person's travel mode; `onChange` gets the chosen mode (undefined: default). */
export function travelModeSelect(label: string, current: TravelMode | undefined, onChange: (mode: TravelMode | undefined) => void): HTMLSelectElement {
  const select = h('select', 'travel-mode');
  select.setAttribute('aria-label', `How ${label} travels`);
  for (const [value, text] of TRAVEL_MODES) {
    const option = h('option', '', text);
    option.value = value;
    option.selected = value === (current ?? '');
    select.append(option);
  }
  select.addEventListener('change', () => onChange(select.value === '' ? undefined : (select.value as TravelMode)));
  return select;
}

export interface FairnessControls {
  /** The `mode` fields to add to a POINT search for `people` people (empty when defaults). */
  modeFields(people: number): { fairness?: Fairness; quorum?: number };
  /** Offers quorums 1..people-1 ("2 of 3 people"); a chosen quorum no longer possible goes back to everyone. */
  peopleChanged(people: number): void;
}

export function setUpFairness(fairness: HTMLSelectElement, quorum: HTMLSelectElement, onChange: () => void): FairnessControls {
  fairness.addEventListener('change', onChange);
  quorum.addEventListener('change', onChange);
  return {
    modeFields(people) {
      const fields: { fairness?: Fairness; quorum?: number } = {};
      if (fairness.value !== 'CENTRE') fields.fairness = fairness.value as Fairness;
      const k = Number(quorum.value);
      if (quorum.value !== '' && k >= 1 && k < people) fields.quorum = k;
      return fields;
    },
    peopleChanged(people) {
      const chosen = quorum.value;
      quorum.replaceChildren();
      const everyone = h('option', '', 'Everyone');
      everyone.value = '';
      quorum.append(everyone);
      for (let k = people - 1; k >= 1; k--) {
        const option = h('option', '', `The best placed ${k} of ${people}`);
        option.value = String(k);
        quorum.append(option);
      }
      quorum.value = chosen !== '' && Number(chosen) < people ? chosen : '';
      quorum.disabled = people < 2;
    },
  };
}
