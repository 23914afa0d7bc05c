import { venuesAtSea } from '../data/venues-at-sea.js';
import type { Engine } from '../engine.js';

/**
 * The warning `serve` and `snapshot` print when venues of the file they read lie at sea
 * (src/data/venues-at-sea.ts), or null when none does: most likely coordinates written
 * `[longitude, latitude]`, as GeoJSON and most tools write them. One line; the data is still
 * served (a venue at sea is odd, not invalid).
 */
export function seaWarning(engine: Engine, path: string): string | null {
  const store = engine.store;
  const found = venuesAtSea(store.lat, store.lon, store.size);
  if (found.atSea === 0) return null;
  const count = (n: number) => n.toLocaleString('en-GB');
  const of = found.checked === store.size ? `${count(found.atSea)} of the ${count(store.size)} venues` : `${count(found.atSea)} of ${count(found.checked)} venues checked (of ${count(store.size)})`;
  const examples = found.examples.map((i) => `${JSON.stringify(store.id(i))} at [${store.lat[i]}, ${store.lon[i]}]`).join(', ');
  const swapped =
    found.onLandSwapped === found.atSea
      ? `; read the other way round, every one of them lies on land`
      : found.onLandSwapped > 0
        ? `; read the other way round, ${count(found.onLandSwapped)} of them lie on land`
        : '';
  return (
    `warning: ${of} in ${path} lie at sea (e.g. ${examples})${swapped}. ` +
    'A venue\'s location.coordinates is [latitude, longitude], latitude first; GeoJSON and most tools write [longitude, latitude]: swap them if so (docs/data-model.md)'
  );
}
