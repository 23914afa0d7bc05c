/**
 * Wall-clock times in an IANA time zone, for "open at a chosen time": the time a person
 * picks is read in the zone of the venues searched, not the device's (a visitor in New York
 * planning a London evening means 20:00 in London; audit 62c finding 7). The zone of a place
 * is the engine's own rule for a venue without a `timeZone` (src/hours/time-zone.ts).
 */
import { zoneForLocation } from '../../hours/time-zone.js';
import type { LatLon } from './map.js';

const MS_PER_MINUTE = 60_000;

/** The device's zone (the browser's). */
export const deviceZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The zone the chosen time is read in: the zone at the middle of `points` (the people, or the
 * route's points; the plain mean of their coordinates, a group or a route being far smaller
 * than a zone), or null without points.
 */
export function searchAreaZone(points: readonly LatLon[]): string | null {
  if (points.length === 0) return null;
  const lat = points.reduce((sum, p) => sum + p.lat, 0) / points.length;
  const lon = points.reduce((sum, p) => sum + p.lon, 0) / points.length;
  return zoneForLocation(lat, lon);
}

/** Minutes `zone` is ahead of UTC at the instant `utcMs`. */
function offsetMinutes(utcMs: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' }).formatToParts(utcMs);
  const get = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value);
  const wallAsUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return Math.round((wallAsUtc - Math.floor(utcMs / MS_PER_MINUTE) * MS_PER_MINUTE) / MS_PER_MINUTE);
}

/**
 * The UTC instant (ms) of the wall time `local` (`YYYY-MM-DDTHH:mm`, a datetime-local
 * field's value) in `zone`; undefined when `local` is not such a value. A wall time skipped
 * by a spring-forward is read after the gap (01:30 on London's change day is 02:30 BST).
 */
export function wallTimeToUtc(local: string, zone: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(local);
  if (m === null) return undefined;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  if (!Number.isFinite(wall)) return undefined;
  // the offset at the wall time read as UTC, corrected by the offset at the instant that gives
  const guess = wall - offsetMinutes(wall, zone) * MS_PER_MINUTE;
  return wall - offsetMinutes(guess, zone) * MS_PER_MINUTE;
}

/** `utcMs` as a datetime-local value (`YYYY-MM-DDTHH:mm`) on the wall clocks of `zone`. */
export function wallTimeIn(utcMs: number, zone: string): string {
  return new Date(utcMs + offsetMinutes(utcMs, zone) * MS_PER_MINUTE).toISOString().slice(0, 16);
}

/** One `timeZoneName` part of `utcMs` in `zone`, as British English names it. */
function zoneNamePart(zone: string, utcMs: number, style: 'longGeneric' | 'long' | 'shortOffset'): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: style }).formatToParts(utcMs).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

/** Intl's way of naming a zone it has no words for: "GMT+01:00", "GMT". */
const isOffsetName = (name: string): boolean => name === '' || /^(GMT|UTC)([+\-−]|$)/.test(name);

/**
 * `zone` in words a visitor reads, with its offset from UTC at the instant `utcMs` (audit
 * 64c F4: "Europe/Isle_of_Man" is an id, not words): "Isle of Man Time (Greenwich Mean Time,
 * UTC+0 on that date)", "Fiji Standard Time (UTC+12 on that date)". All from Intl: the
 * zone's generic name, its name at that instant where it has one of its own, and its offset;
 * a zone Intl has no name for is named by its id's last part ("Isle_of_Man" -> "Isle of Man").
 */
export function zoneWords(zone: string, utcMs: number): string {
  const generic = zoneNamePart(zone, utcMs, 'longGeneric');
  const name = isOffsetName(generic) ? (zone.split('/').pop() ?? zone).replace(/_/g, ' ') : generic;
  const specific = zoneNamePart(zone, utcMs, 'long');
  const offset = zoneNamePart(zone, utcMs, 'shortOffset').replace(/^GMT/, 'UTC').replace(/−/g, '-');
  const utc = offset === 'UTC' ? 'UTC+0' : offset;
  const detail = isOffsetName(specific) || specific === name ? utc : `${specific}, ${utc}`;
  return `${name} (${detail} on that date)`;
}
