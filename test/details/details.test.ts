import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { describe, expect, it } from 'vitest';
import { advancedDetails, basicDetails, createDetailsService, menuList } from '../../src/details/details.js';
import { createEngine } from '../../src/engine.js';
import { VenueSearchError } from '../../src/errors.js';
import { AdvancedDetailsSchema, BasicDetailsSchema, MenuListSchema } from '../../src/schema/details.js';
import type { VenueRecord } from '../../src/schema/venue.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/venues.ndjson', import.meta.url));
const fixtures: VenueRecord[] = readFileSync(FIXTURES, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as VenueRecord);

const basicCheck = TypeCompiler.Compile(BasicDetailsSchema);
const advancedCheck = TypeCompiler.Compile(AdvancedDetailsSchema);
const menusCheck = TypeCompiler.Compile(MenuListSchema);
const NOW = Date.UTC(2026, 5, 12, 18, 0); // Friday 12 June 2026, 19:00 in London (BST)

/** Every `price` anywhere in a menu tree (menu, section, item, option choice). */
function prices(node: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) for (const x of node) prices(x, out);
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'price') out.push(v);
      else prices(v, out);
    }
  }
  return out;
}

describe('venue details on the bundled fixtures', () => {
  it(`basic and advanced details of every fixture venue (${fixtures.length}) validate; basic has at most 5 images, advanced all as photos`, () => {
    expect(fixtures.length).toBeGreaterThan(100);
    let withMoreThan5 = 0;
    for (const r of fixtures) {
      const b = basicDetails(r, NOW);
      if (!basicCheck.Check(b)) throw new Error(`${r.id} basic: ${JSON.stringify([...basicCheck.Errors(b)].slice(0, 3))}`);
      const a = advancedDetails(r, NOW);
      if (!advancedCheck.Check(a)) throw new Error(`${r.id} advanced: ${JSON.stringify([...advancedCheck.Errors(a)].slice(0, 3))}`);
      const images = r.images ?? [];
      if (images.length > 5) withMoreThan5++;
      expect(b.images.length).toBe(Math.min(5, images.length));
      expect(b.images).toEqual(images.slice(0, 5));
      expect(a.photos).toEqual(images);
      expect(a.images).toEqual(b.images);
      expect(b.name).toBe(r.name);
      expect(b.location.coordinates).toEqual(r.location.coordinates);
      expect(b).not.toHaveProperty('distanceMeters');
    }
    expect(withMoreThan5).toBeGreaterThan(0); // the 5-image cap was exercised
  });

  it("menus of every fixture venue validate and every price (menu, section, item, option) is integer pence >= 0", () => {
    let count = 0;
    const bad: string[] = [];
    for (const r of fixtures) {
      const menus = menuList(r);
      if (!menusCheck.Check(menus)) bad.push(`${r.id}: schema`);
      for (const p of prices(menus)) {
        if (!(Number.isInteger(p) && (p as number) >= 0)) bad.push(`${r.id}: price ${String(p)}`);
        count++;
      }
    }
    expect(bad).toEqual([]);
    expect(count).toBeGreaterThan(100);
  });

  it('missing data is omitted or empty, never invented (a venue with only id, name, location)', () => {
    const bare: VenueRecord = { id: 'bare', name: 'The Bare', location: { type: 'Point', coordinates: [51.5, -0.12] } };
    const a = advancedDetails(bare, NOW);
    expect(a).toEqual({
      id: 'bare',
      name: 'The Bare',
      displayName: 'The Bare',
      location: { type: 'Point', coordinates: [51.5, -0.12] },
      additionalGenres: [],
      isOpen: false,
      isChain: false,
      regularOpeningHours: [],
      establishmentFlags: [],
      catersFlags: [],
      images: [],
      kitchenOpeningHours: [],
      holidayOpeningHours: [],
      photos: [],
      highlights: [],
      events: [],
    });
    expect(menuList(bare)).toEqual([]);
  });

  it('isOpen is computed at now in the venue zone: 12:00-23:00 daily is open at 19:00 BST, closed at 00:30 BST (hand-computed)', () => {
    const r: VenueRecord = {
      id: 'h',
      name: 'Hours',
      location: { type: 'Point', coordinates: [51.5, -0.12] },
      regularOpeningHours: [
        { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'], timeSlots: [{ open: '12:00', close: '23:00', isClosed: false, closeNextDay: false }] },
      ],
    };
    expect(basicDetails(r, Date.UTC(2026, 5, 12, 18, 0)).isOpen).toBe(true); // 19:00 BST
    expect(basicDetails(r, Date.UTC(2026, 5, 12, 23, 30)).isOpen).toBe(false); // 00:30 BST next day
    expect(basicDetails(r, Date.UTC(2026, 0, 12, 22, 30)).isOpen).toBe(true); // 22:30 GMT in winter
  });

  it('the response schemas reject a leaked field (additionalProperties false)', () => {
    const b = { ...basicDetails(fixtures[0]!, NOW), vibes: ['x'] };
    expect(basicCheck.Check(b)).toBe(false);
  });

  it('details service: unknown id is venue_not_found naming the id; a returned copy cannot change the store', () => {
    const engine = createEngine(fixtures.slice(0, 50));
    const svc = createDetailsService(engine.store);
    const id = fixtures[0]!.id;
    expect(svc.basic(id, NOW).id).toBe(id);
    try {
      svc.advanced('no-such-venue', NOW);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(VenueSearchError);
      expect((e as VenueSearchError).code).toBe('venue_not_found');
      expect((e as VenueSearchError).param).toBe('id');
      expect((e as VenueSearchError).message).toContain('no-such-venue');
    }
    const menus = svc.menus(id);
    if (menus.length > 0) menus[0]!.name = 'changed';
    expect(svc.menus(id)[0]?.name).not.toBe('changed');
  });
});
