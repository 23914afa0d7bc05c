// The same engine from CommonJS (a package without "type": "module"): Node 20.19 and later
// load the ES module through require(); top-level await is not allowed here, so wrap it.
const { readVenues, createEngine } = require('venue-search-engine');

async function main() {
  const { venues } = await readVenues(process.argv[2] ?? 'venues.ndjson');
  const engine = createEngine(venues, { validate: false });
  const found = engine.find({ q: 'red lion', location: 'Soho' });
  console.log(`Found ${found.totalFound} for "red lion" near Soho; nearest: ${found.establishments[0]?.name ?? 'none'}`);
}

main();
