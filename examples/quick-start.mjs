import { readVenues, createEngine } from 'venue-search-engine';

// Any venues file: NDJSON, a JSON array or GeoJSON, such as `venue-search import osm` writes.
// The places below are in London: give it London venues (the README's London pubs import, or
// the package's fixtures), or change the coordinates and place names to your data's.
const { venues } = await readVenues(process.argv[2] ?? 'venues.ndjson');
const engine = createEngine(venues, { validate: false }); // readVenues already validated

// Four friends meet up: open at 8 pm on a Friday, vegan food and independents preferred.
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
    },
  },
  { limit: 3 },
);
console.log(`Meet up around ${meetUp.centerPoint.Lat.toFixed(5)}, ${meetUp.centerPoint.Lon.toFixed(5)}:`);
for (const v of meetUp.establishments) {
  const soho = v.travel.Soho?.durationMinutes; // travel has a key per location label
  console.log(`  ${v.name} [${v.id}] ${Math.round(v.distanceMeters)} m from the centre, score ${v.matchScore.total.toFixed(2)}, ` +
    `${soho === undefined ? '?' : Math.round(soho)} min from Soho`);
}

// A pub along a walk from Camden to Shoreditch, at most 200 m off the route.
const onTheWay = engine.search(
  {
    locations: [{ lat: 51.539, lon: -0.1426 }, { lat: 51.5265, lon: -0.0787 }],
    mode: { mode: 'PATH', maxDistance: 200 },
    preferences: { establishmentFilters: ['pub'], nonCompromise: ['establishmentFilters'] },
  },
  { limit: 3 },
);
console.log(`On the way (${onTheWay.totalResults} pubs in the corridor):`);
for (const v of onTheWay.establishments) {
  // alongRouteMeters is on PATH results of two or more locations only (so optional in the response type)
  console.log(`  ${v.name} [${v.id}] ${Math.round(v.distanceMeters)} m off the route, ${Math.round(v.alongRouteMeters ?? 0)} m along`);
}

// "The Red Lion in Soho", typo and all; then its menus (prices in pence), when it has any.
const found = engine.find({ q: 'red lino', location: 'Soho' }); // within 5 km by default
console.log(`Found ${found.totalFound} for "red lino" within 5 km of Soho:`);
for (const v of found.establishments.slice(0, 3)) {
  // distanceMeters is there when the find has a centre (here: Soho)
  console.log(`  ${v.name} [${v.id}] ${Math.round(v.distanceMeters ?? 0)} m`);
}
const first = found.establishments[0];
if (first) console.log(`Menus of ${first.name}: ${engine.menus(first.id).length}`);
