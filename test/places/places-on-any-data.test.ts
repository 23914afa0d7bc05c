import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { VenueSearchError } from '../../src/errors.js';
import { collectRun, importOsm } from '../../src/import/index.js';
import { UnknownPlaceError } from '../../src/places/unknown-place-error.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';

/**
 * Issue 14, item 3: place names resolve on any data, from the embedded gazetteer, including
 * data whose venues have no addresses. Every expected centre below comes from a source
 * independent of the embedded gazetteer (GeoNames): Wikipedia infobox coordinates, the
 * Association of British Counties' gazetteer, or a postcode-district centroid table. Each
 * was checked to lie in the named place (its streets, station or landmark). Distances are
 * exact WGS84 geodesics (GeographicLib).
 */
interface Reference {
  readonly lat: number;
  readonly lon: number;
}

const LONDON_REFERENCES: ReadonlyArray<readonly [string, string, Reference]> = [
  // en.wikipedia.org/wiki/Soho infobox, 51°30′49″N 0°08′02″W: between Old Compton Street and Soho Square
  ['Soho', 'Wikipedia', { lat: 51.5136, lon: -0.134 }],
  // en.wikipedia.org/wiki/Shoreditch infobox, 51°31′34″N 0°04′41″W: Shoreditch High Street / Old Street
  ['Shoreditch', 'Wikipedia', { lat: 51.526, lon: -0.078 }],
  // en.wikipedia.org/wiki/Covent_Garden infobox, 51°30′42″N 0°07′26″W: the Piazza
  ['Covent Garden', 'Wikipedia', { lat: 51.5117, lon: -0.124 }],
  // en.wikipedia.org/wiki/Camden_Town ("often shortened to Camden"), 51°32′28″N 0°08′36″W: Camden High Street
  ['Camden', 'Wikipedia (Camden Town)', { lat: 51.541, lon: -0.1433 }],
  // en.wikipedia.org/wiki/Mayfair infobox, 51°30′32″N 0°08′51″W: Berkeley Square / Bond Street
  ['Mayfair', 'Wikipedia', { lat: 51.508755, lon: -0.14743 }],
  // gazetteer.org.uk/place/Brixton,_Surrey_5827 (Association of British Counties), grid TQ311753: Brixton Road
  ['Brixton', 'ABC gazetteer', { lat: 51.461895, lon: -0.114219 }],
  // Postcode-district centroid, table of UK outward codes in github.com/ronar/partner-web-app
  // src/areas.ts (commit 1a9ec56): between Camden Town and Euston, inside NW1
  ['NW1', 'outcode centroid table', { lat: 51.536729, lon: -0.13944085 }],
  // Same table: EC2A ("Shoreditch", Hackney), near Worship Street / Curtain Road
  ['EC2A', 'outcode centroid table', { lat: 51.520707, lon: -0.087596529 }],
];

const ELSEWHERE_REFERENCES: ReadonlyArray<readonly [string, string, Reference]> = [
  // en.wikipedia.org/wiki/Didsbury "Geography": 53°24′59″N 2°13′51″W, Didsbury village (Manchester)
  ['Didsbury', 'Wikipedia', { lat: 53.41639, lon: -2.23083 }],
  // en.wikipedia.org/wiki/Leith infobox, 55°58′48″N 3°10′12″W: the Shore, Edinburgh's port
  ['Leith', 'Wikipedia', { lat: 55.980089, lon: -3.170049 }],
];

/** Metres from a find's searchLocation to a reference point (GeographicLib). */
function metresFrom(engine: Engine, location: string, ref: Reference): number {
  const found = engine.find({ q: 'arms', location });
  expect(found.searchLocation).toBeDefined();
  return geodesic(found.searchLocation!.Lat, found.searchLocation!.Lon, ref.lat, ref.lon);
}

const LONDON_PUBS = 'osm-london-pubs/london_pubs_points.ndjson';

describe.skipIf(!hasShared(LONDON_PUBS))('issue 14: place names on the OSM London pubs alone (project importer)', () => {
  let withAddresses: Engine;
  let withoutAddresses: Engine;

  beforeAll(async () => {
    const { records } = await collectRun(importOsm(sharedFile(LONDON_PUBS)));
    expect(records.length).toBe(3048);
    withAddresses = createEngine(records);
    withoutAddresses = createEngine(
      records.map((r) => {
        const { formattedAddress: _dropped, ...rest } = r;
        return rest;
      }),
    );
    expect([...withoutAddresses.store.records].every((r) => r.formattedAddress === undefined)).toBe(true);
  });

  it.each(LONDON_REFERENCES)('find({ q: "arms", location: %j }): searchLocation within 1.5 km of the reference (%s)', (name, _source, ref) => {
    const d = metresFrom(withAddresses, name, ref);
    expect(d).toBeLessThan(1500);
  });

  it.each([...LONDON_REFERENCES, ...ELSEWHERE_REFERENCES])('venues without any address: %j still resolves within 1.5 km of the reference (%s)', (name, _source, ref) => {
    expect(metresFrom(withoutAddresses, name, ref)).toBeLessThan(1500);
  });

  it.each(ELSEWHERE_REFERENCES)('%j, far from every London venue, resolves within 1.5 km of the reference (%s)', (name, _source, ref) => {
    expect(metresFrom(withAddresses, name, ref)).toBeLessThan(1500);
  });

  it('"arms" near Soho finds the arms pubs around it, nearest first, all within 5 km of the resolved centre', () => {
    const found = withAddresses.find({ q: 'arms', location: 'Soho', limit: 100 });
    expect(found.resolvedPlace?.name).toBe('Soho');
    expect(found.totalFound).toBeGreaterThan(20);
    const centre = found.searchLocation!;
    let last = 0;
    for (const e of found.establishments) {
      const d = geodesic(centre.Lat, centre.Lon, e.location.coordinates[0], e.location.coordinates[1]);
      expect(d).toBeLessThanOrEqual(5000 + 1);
      expect(d).toBeGreaterThanOrEqual(last - 1);
      last = d;
    }
  });

  it('unknown place: unknown_place naming it, suggesting the closest known names ("Shoredich" -> Shoreditch)', () => {
    const err = caught(() => withAddresses.find({ q: 'arms', location: 'Shoredich' }));
    expect(err).toBeInstanceOf(VenueSearchError);
    expect(err.code).toBe('unknown_place');
    expect(err.param).toBe('location');
    expect(err.value).toBe('Shoredich');
    expect(err.suggestions[0]).toBe('Shoreditch');
    expect(err.message).toBe('location "Shoredich" is not a place we know; did you mean "Shoreditch"?');
  });

  it.each([
    ['Covent Gardn', 'Covent Garden'], // a letter missing
    ['Maifair', 'Mayfair'], // a letter replaced
    ['Brixotn', 'Brixton'], // two letters swapped
    ['Letih', 'Leith'], // swapped, far from the venues
  ])('suggestion for %j is %j (the first offered, also in the message)', (typed, expected) => {
    const err = caught(() => withoutAddresses.find({ q: 'arms', location: typed }));
    expect(err.suggestions[0]).toBe(expected);
    expect(err.message).toContain(`did you mean "${expected}"`);
  });

  it('a name nothing resembles: unknown_place without suggestions, the message as before', () => {
    const err = caught(() => withAddresses.find({ q: 'arms', location: 'Xqzvbnm' }));
    expect(err.suggestions).toEqual([]);
    expect(err.message).toBe('location "Xqzvbnm" is not a place we know');
  });
});

const VEGGIE_GB = 'osm-veggie-gb/veggiekarte_gb_2022-12-02.geojson';

describe.skipIf(!hasShared(VEGGIE_GB))('towns on venues spread thinly over Great Britain (OSM vegetarian venues, project importer)', () => {
  let engine: Engine;
  beforeAll(async () => {
    const { records } = await collectRun(importOsm(sharedFile(VEGGIE_GB)));
    engine = createEngine(records);
  });

  // en.wikipedia.org infobox coordinates of each town centre. Each has a same-named hamlet or
  // postal place with more of these venues within 10 km than the town has (Brackley, Highland;
  // Dudley, Northumberland; Luton, Chatham; Sleaford, Surrey; Wishaw, Warwickshire). Dudley and
  // Luton have a few venues near them; Brackley, Sleaford and Wishaw lie 12 to 20 km from the
  // nearest, within the data's reach (about 24 km here).
  it.each([
    ['Brackley', { lat: 52.0322, lon: -1.147 }], // 52°01′56″N 1°08′49″W
    ['Dudley', { lat: 52.508, lon: -2.089 }], // 52°30′29″N 2°05′20″W
    ['Luton', { lat: 51.8783, lon: -0.4147 }], // 51°52′42″N 0°24′53″W
    ['Sleaford', { lat: 52.996, lon: -0.413 }], // 52°59′46″N 0°24′47″W
    ['Wishaw', { lat: 55.7739, lon: -3.9189 }], // 55°46′26″N 3°55′08″W
  ] as const)('%j resolves to the town, within 5 km of its centre', (name, ref) => {
    expect(metres(centreOf(engine, name), ref)).toBeLessThan(5000);
  });
});

/** Venues with no address around a point: a spiral of `n` points within ~1.5 km. */
function venuesAround(prefix: string, lat: number, lon: number, n: number): VenueRecord[] {
  const out: VenueRecord[] = [];
  for (let i = 0; i < n; i++) {
    const a = i * 2.399963; // golden angle
    const r = 0.0005 * Math.sqrt(i + 1);
    out.push({ id: `${prefix}${i}`, name: `The Test Arms ${i}`, location: { type: 'Point', coordinates: [lat + r * Math.cos(a), lon + r * 1.6 * Math.sin(a)] } });
  }
  return out;
}

/** The centre find resolved `location` to, on `engine`. */
function centreOf(engine: Engine, location: string): Reference {
  const s = engine.find({ q: 'arms', location }).searchLocation!;
  return { lat: s.Lat, lon: s.Lon };
}

/** Metres between two points (GeographicLib). */
function metres(a: Reference, b: Reference): number {
  return geodesic(a.lat, a.lon, b.lat, b.lon);
}

describe('ambiguous names prefer the place among the data\'s venues (synthetic venues, no addresses)', () => {
  // en.wikipedia.org/wiki/Richmond,_London: 51°27′25″N 0°18′12″W (Richmond town centre)
  const RICHMOND_LONDON = { lat: 51.457, lon: -0.3033 };
  // en.wikipedia.org/wiki/Richmond,_North_Yorkshire: 54°24′11″N 1°44′13″W (the market place)
  const RICHMOND_YORKSHIRE = { lat: 54.403, lon: -1.737 };
  // en.wikipedia.org/wiki/Liverpool: 53°24′27″N 2°59′31″W (city centre); Kensington, Liverpool lies ~2.5 km east of it
  const LIVERPOOL = { lat: 53.4075, lon: -2.9919 };
  // en.wikipedia.org/wiki/Kensington infobox: 51°30′00″N 0°11′28″W (Kensington High Street)
  const KENSINGTON_LONDON = { lat: 51.5, lon: -0.1911 };

  it('Richmond: venues in south-west London -> Richmond, London; venues in North Yorkshire -> Richmond, North Yorkshire', () => {
    const london = createEngine(venuesAround('l', 51.46, -0.3, 40));
    const yorkshire = createEngine(venuesAround('y', 54.4, -1.74, 40));
    expect(metres(centreOf(london, 'Richmond'), RICHMOND_LONDON)).toBeLessThan(1500);
    expect(metres(centreOf(yorkshire, 'Richmond'), RICHMOND_YORKSHIRE)).toBeLessThan(1500);
  });

  it('Richmond: venues in both places, many more in London -> London; many more in Yorkshire -> Yorkshire', () => {
    const moreLondon = createEngine([...venuesAround('l', 51.46, -0.3, 60), ...venuesAround('y', 54.4, -1.74, 5)]);
    const moreYorkshire = createEngine([...venuesAround('l', 51.46, -0.3, 5), ...venuesAround('y', 54.4, -1.74, 60)]);
    expect(metres(centreOf(moreLondon, 'Richmond'), RICHMOND_LONDON)).toBeLessThan(1500);
    expect(metres(centreOf(moreYorkshire, 'Richmond'), RICHMOND_YORKSHIRE)).toBeLessThan(1500);
  });

  it('Richmond with venues near neither (Edinburgh): the one nearest the venues, North Yorkshire', () => {
    const edinburgh = createEngine(venuesAround('e', 55.95, -3.19, 30));
    expect(metres(centreOf(edinburgh, 'Richmond'), RICHMOND_YORKSHIRE)).toBeLessThan(1500);
  });

  it('Kensington: venues in Liverpool -> Kensington, Liverpool (within 5 km of Liverpool centre); in London -> Kensington, London', () => {
    const liverpool = createEngine(venuesAround('v', 53.41, -2.96, 40));
    const london = createEngine(venuesAround('w', 51.5, -0.18, 40));
    expect(metres(centreOf(liverpool, 'Kensington'), LIVERPOOL)).toBeLessThan(5000);
    expect(metres(centreOf(london, 'Kensington'), KENSINGTON_LONDON)).toBeLessThan(1500);
  });
});

describe('a town\'s name means the town, not a hamlet or postal name of the same name (synthetic venues, no addresses)', () => {
  // en.wikipedia.org infobox coordinates of each town centre
  const PRESTON_LANCASHIRE = { lat: 53.759, lon: -2.699 }; // 53°45′32″N 2°41′57″W
  const LEEDS = { lat: 53.7997, lon: -1.5492 }; // 53°47′59″N 1°32′57″W
  const SHEFFIELD = { lat: 53.3811, lon: -1.4701 }; // 53°22′52″N 1°28′12″W
  const WESTON_SUPER_MARE = { lat: 51.346, lon: -2.977 }; // 51°20′46″N 2°58′37″W
  const KINGSTON_UPON_THAMES = { lat: 51.4085, lon: -0.3064 }; // 51°24′31″N 0°18′23″W
  /** Venues in central London, in Brighton (by Preston Park), and a few in Preston and Sheffield. */
  const acrossBritain = () =>
    createEngine([
      ...venuesAround('l', 51.51, -0.13, 60),
      ...venuesAround('b', 50.84, -0.14, 60),
      ...venuesAround('p', 53.76, -2.7, 5),
      ...venuesAround('s', 53.38, -1.47, 5),
    ]);

  it('"Preston" on venues across Britain, most by Brighton\'s Preston: Preston, Lancashire (a city, venues there too)', () => {
    expect(metres(centreOf(acrossBritain(), 'Preston'), PRESTON_LANCASHIRE)).toBeLessThan(3000);
  });

  it('"Sheffield": the city, not its post town\'s rows 14 to 17 km north of it', () => {
    expect(metres(centreOf(acrossBritain(), 'Sheffield'), SHEFFIELD)).toBeLessThan(3000);
  });

  it('names with no candidate near the venues (London only): the town, not the same-named village nearer London', () => {
    const london = createEngine(venuesAround('l', 51.51, -0.13, 60));
    expect(metres(centreOf(london, 'Leeds'), LEEDS)).toBeLessThan(3000);
    expect(metres(centreOf(london, 'Preston'), PRESTON_LANCASHIRE)).toBeLessThan(3000);
    expect(metres(centreOf(london, 'Weston-super-Mare'), WESTON_SUPER_MARE)).toBeLessThan(3000);
  });

  it('"Kingston" with venues in south-west London: Kingston upon Thames', () => {
    const southWest = createEngine(venuesAround('k', 51.41, -0.3, 40));
    expect(metres(centreOf(southWest, 'Kingston'), KINGSTON_UPON_THAMES)).toBeLessThan(3000);
  });

  it('"Douglas" with venues in London or on the Isle of Man: the island\'s capital, a city (audit 59b: its GB postal row hid the capital)', () => {
    // en.wikipedia.org/wiki/Douglas,_Isle_of_Man infobox: 54°09′N 4°29′W
    const DOUGLAS_IOM = { lat: 54.15, lon: -4.4833 };
    for (const engine of [createEngine(venuesAround('l', 51.51, -0.13, 40)), createEngine(venuesAround('m', 54.2, -4.55, 30))]) {
      const got = engine.find({ q: 'cafe', location: 'Douglas', limit: 1 }, { now: 0 });
      expect(metres({ lat: got.resolvedPlace!.Lat, lon: got.resolvedPlace!.Lon }, DOUGLAS_IOM)).toBeLessThan(3000);
      expect(got.resolvedPlace!.kind).toBe('city');
    }
  });

  it('the data still decide between places of one kind, and a hamlet among the venues beats a town far from them', () => {
    // Preston Park, Brighton (en.wikipedia.org/wiki/Preston,_Brighton: 50°50′N 0°09′W) with venues only there
    const brighton = createEngine(venuesAround('b', 50.84, -0.14, 40));
    expect(metres(centreOf(brighton, 'Preston'), { lat: 50.8333, lon: -0.15 })).toBeLessThan(3000);
  });
});

describe('names written another way: "and" for "&", a city by its first word (synthetic venues, no addresses)', () => {
  // en.wikipedia.org/wiki/Elephant_and_Castle infobox: 51°29′42″N 0°06′00″W (the junction)
  const ELEPHANT = { lat: 51.495, lon: -0.1 };
  // en.wikipedia.org/wiki/Newcastle_upon_Tyne infobox: 54°58′40″N 1°36′48″W (Grey's Monument)
  const NEWCASTLE_UPON_TYNE = { lat: 54.97778, lon: -1.61333 };
  // en.wikipedia.org/wiki/Stoke-on-Trent infobox: 53°00′09″N 2°11′10″W (Hanley)
  const STOKE_ON_TRENT = { lat: 53.0025, lon: -2.1861 };

  it('both spellings are one place when the venues\' addresses teach one of them (audit 59b: 949 m apart on the FHRS data)', () => {
    // addresses spelling the area "Elephant And Castle" (as FHRS London's do) and a few "Elephant & Castle"
    const addressed = venuesAround('e', 51.4945, -0.1, 30).map((v, i) => ({ ...v, formattedAddress: `${i} New Kent Road, ${i % 5 === 0 ? 'Elephant & Castle' : 'Elephant And Castle'}, London SE1 6TJ` }));
    const engine = createEngine([...addressed, ...venuesAround('l', 51.51, -0.13, 30)]);
    const places = ['Elephant and Castle', 'Elephant & Castle', 'elephant AND castle'].map((name) => engine.find({ q: 'arms', location: name, limit: 1 }, { now: 0 }).resolvedPlace!);
    for (const p of places) expect({ Lat: p.Lat, Lon: p.Lon }).toEqual({ Lat: places[0]!.Lat, Lon: places[0]!.Lon });
    expect(metres(centreOf(engine, 'Elephant & Castle'), ELEPHANT)).toBeLessThan(1500);
  });

  it('"Elephant and Castle" and "Elephant & Castle" are the same place, within 1.5 km of the junction (the area around it)', () => {
    const london = createEngine(venuesAround('l', 51.5, -0.1, 40));
    for (const name of ['Elephant and Castle', 'Elephant & Castle', 'elephant AND castle']) expect(metres(centreOf(london, name), ELEPHANT), name).toBeLessThan(1500);
  });

  it('"Kirk Michael" (only an approximate postal point under that spelling) is the surveyed village "Kirkmichael", Isle of Man', () => {
    // en.wikipedia.org/wiki/Kirk_Michael infobox: 54°17′N 4°35′W (the village on the A3)
    const KIRK_MICHAEL = { lat: 54.2833, lon: -4.5833 };
    const island = createEngine([...venuesAround('m', 54.283, -4.585, 5), ...venuesAround('d', 54.15, -4.48, 40)]);
    for (const name of ['Kirk Michael', 'Kirkmichael']) expect(metres(centreOf(island, name), KIRK_MICHAEL), name).toBeLessThan(1500);
  });

  it('"Newcastle" with venues on Tyneside is Newcastle upon Tyne; "Stoke" with venues in the Potteries is Stoke-on-Trent', () => {
    const tyneside = createEngine(venuesAround('t', 54.975, -1.6, 40));
    expect(metres(centreOf(tyneside, 'Newcastle'), NEWCASTLE_UPON_TYNE)).toBeLessThan(3000);
    const potteries = createEngine(venuesAround('p', 53.01, -2.18, 40));
    expect(metres(centreOf(potteries, 'Stoke'), STOKE_ON_TRENT)).toBeLessThan(5000);
  });
});

describe('learnt places and the gazetteer (synthetic venues with addresses)', () => {
  const withAddress = (id: string, lat: number, lon: number, address: string): VenueRecord => ({
    id,
    name: `The ${id} Arms`,
    location: { type: 'Point', coordinates: [lat, lon] },
    formattedAddress: address,
  });

  it('a learnt area far from every gazetteer place of its name wins: "Soho" in Bristol addresses -> their centre', () => {
    // five venues whose addresses say "Soho, Bristol" (hand-computed centre: the mean, 51.4562, -2.5930)
    const lats = [51.455, 51.456, 51.457, 51.4562, 51.4568];
    const lons = [-2.592, -2.593, -2.594, -2.5935, -2.5925];
    const engine = createEngine(lats.map((lat, i) => withAddress(`b${i}`, lat, lons[i]!, `${i} Mill Lane, Soho, Bristol`)));
    const got = engine.find({ q: 'arms', location: 'Soho' });
    expect(got.resolvedPlace?.kind).toBe('area');
    expect(got.searchLocation!.Lat).toBeCloseTo(51.4562, 9);
    expect(got.searchLocation!.Lon).toBeCloseTo(-2.593, 9);
  });

  it('a learnt area near a gazetteer place of its name takes the gazetteer point (same place, surveyed point)', () => {
    // addresses say "Soho, London" for venues ~300 m north of Soho's centre: the gazetteer point wins
    const engine = createEngine([0, 1, 2, 3].map((k) => withAddress(`s${k}`, 51.517 + k * 0.0003, -0.1345, `${k} Oxford Street, Soho, London`)));
    const got = engine.find({ q: 'arms', location: 'Soho' });
    expect(got.resolvedPlace?.kind).not.toBe('area');
    expect(geodesic(got.searchLocation!.Lat, got.searchLocation!.Lon, 51.5136, -0.134)).toBeLessThan(1000); // Wikipedia's Soho
  });
});

/** The UnknownPlaceError a find throws (fails the test on any other outcome). */
function caught(fn: () => unknown): UnknownPlaceError {
  try {
    fn();
  } catch (e) {
    if (e instanceof UnknownPlaceError) return e;
    throw e;
  }
  throw new Error('expected unknown_place');
}
