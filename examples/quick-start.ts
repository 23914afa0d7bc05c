// The README's quick start, run by test/examples.test.ts so it cannot rot.
// In your project: import { readVenues, createEngine } from 'venue-search';
import { createEngine, readVenues } from '../src/index.js';

export async function quickStart(file = new URL('../fixtures/venues.ndjson', import.meta.url).pathname) {
  // 1. Load venues (NDJSON, JSON array or GeoJSON); bad records are errors naming file, line and field.
  const { venues } = await readVenues(file);
  const engine = createEngine(venues, { validate: false }); // readVenues already validated

  // 2. Four friends meet up: vegan food a must, open at 8 pm on a Friday, independents preferred.
  const meetUp = engine.search(
    {
      locations: [
        { lat: 51.539, lon: -0.1426, label: 'Camden' },
        { lat: 51.5136, lon: -0.1365, label: 'Soho' },
        { lat: 51.5265, lon: -0.0787, label: 'Shoreditch' },
        { lat: 51.4613, lon: -0.1156, label: 'Brixton', weight: 0.5 },
      ],
      mode: { mode: 'POINT', maxDistance: 3000 },
      preferences: {
        catersFilters: ['vegan'],
        openingConditions: { state: 'OPEN', atTime: '2026-11-27T20:00:00Z' },
        chainPreference: 'PREFER_INDEPENDENT',
        nonCompromise: ['catersFilters'],
      },
    },
    { limit: 3 },
  );

  // 3. Coffee along a walk from Camden to Shoreditch, 200 m either side.
  const onTheWay = engine.search(
    {
      locations: [{ lat: 51.539, lon: -0.1426 }, { lat: 51.5265, lon: -0.0787 }],
      mode: { mode: 'PATH', maxDistance: 200 },
      preferences: { establishmentFilters: ['coffee_shop'], nonCompromise: ['establishmentFilters'] },
    },
    { limit: 3 },
  );

  // 4. "The Red Lion near me", typos and accents welcome; then its menu.
  const found = engine.find({ q: 'red lino', lat: 51.5136, lon: -0.1365, maxDistanceMeters: 5000 });
  const menus = found.establishments[0] ? engine.menus(found.establishments[0].id) : [];

  return { meetUp, onTheWay, found, menus };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { meetUp, onTheWay, found } = await quickStart();
  for (const v of meetUp.establishments) console.log(`${v.name}: ${Math.round(v.distanceMeters)} m from the centre, score ${v.matchScore.total.toFixed(2)}`);
  for (const v of onTheWay.establishments) console.log(`${v.name}: ${Math.round(v.distanceMeters)} m off the route, ${Math.round(v.alongRouteMeters ?? 0)} m along`);
  console.log(`${found.totalFound} found for "red lino"; nearest: ${found.establishments[0]?.name}`);
}
