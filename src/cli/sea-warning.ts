import { venuesAtSea } from '../data/venues-at-sea.js';
import type { Engine } from '../engine.js';
import { zoneForLocation } from '../hours/time-zone.js';

/**
 * The warning `serve` and `snapshot` print when venues of the file they read lie at sea or in
 * Antarctica, or lie outside the British Isles while their address is there and their swapped reading is
 * there (src/data/venues-at-sea.ts), or null when none does: most likely coordinates written
 * `[longitude, latitude]`, as GeoJSON and most tools write them. One line; the data is still
 * served (a venue at sea is odd, not invalid).
 */
export function seaWarning(engine: Engine, path: string): string | null {
  const store = engine.store;
  const found = venuesAtSea(store.lat, store.lon, store.size, (i) => store.record(i).formattedAddress);
  if (found.atSea === 0 && found.swappedFromBritishIsles === 0 && found.inAntarctica === 0) return null;
  const count = (n: number) => n.toLocaleString('en-GB');
  const of = (n: number) => (found.checked === store.size ? `${count(n)} of the ${count(store.size)} venues` : `${count(n)} of ${count(found.checked)} venues checked (of ${count(store.size)})`);
  const at = (i: number) => `${JSON.stringify(store.id(i))} at [${store.lat[i]}, ${store.lon[i]}]`;
  const said: string[] = [];
  /** How many of `total` odd venues lie on land read the other way round, as the end of a clause. */
  const onLandSwapped = (onLand: number, total: number): string =>
    onLand === total ? '; read the other way round, every one of them lies on land' : onLand > 0 ? `; read the other way round, ${count(onLand)} of them lie on land` : '';
  if (found.atSea > 0) {
    said.push(`${of(found.atSea)} in ${path} lie at sea (e.g. ${found.examples.map(at).join(', ')})${onLandSwapped(found.onLandSwapped, found.atSea)}`);
  }
  if (found.inAntarctica > 0) {
    said.push(
      `${of(found.inAntarctica)}${said.length > 0 ? '' : ` in ${path}`} lie in Antarctica, south of 60° S (e.g. ${found.antarcticExamples.map(at).join(', ')})${onLandSwapped(found.antarcticOnLandSwapped, found.inAntarctica)}`,
    );
  }
  if (found.swappedFromBritishIsles > 0) {
    const examples = found.swappedExamples.map((i) => `${at(i)}, time zone ${zoneForLocation(store.lat[i]!, store.lon[i]!)}`).join('; ');
    said.push(
      `${of(found.swappedFromBritishIsles)}${said.length > 0 ? '' : ` in ${path}`} have an address in the British Isles (a UK postcode, an Eircode or the country) but lie outside them (e.g. ${examples}); read the other way round, every one of them lies there`,
    );
  }
  return (
    `warning: ${said.join('; and ')}. ` +
    'A venue\'s location.coordinates is [latitude, longitude], latitude first; GeoJSON and most tools write [longitude, latitude]: swap them if so (docs/data-model.md)'
  );
}
