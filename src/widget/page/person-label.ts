/**
 * The labels of people added without a place name (a click on the map), and what their pins
 * are called. One place for the `Person k` form: the list names such a person by it, and the
 * map's pin, which is numbered by rank, names their point instead (audit 73e F1: a screen
 * reader heard "Person 1: Person 1" and no place).
 */

/** The label of the k-th person added without a place name (1-based). */
export function numberedPersonLabel(k: number): string {
  return `Person ${k}`;
}

/** What the pin of the person ranked `rank` (1-based) is called: "Person 1: Camden", or "Person 2: 51.5406, -0.1607" for a numbered label. */
export function personPinName(rank: number, person: { readonly label: string; readonly lat: number; readonly lon: number }): string {
  const place = /^Person \d+$/.test(person.label) ? `${person.lat.toFixed(4)}, ${person.lon.toFixed(4)}` : person.label;
  return `Person ${rank}: ${place}`;
}
