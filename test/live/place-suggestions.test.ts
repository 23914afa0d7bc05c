// "Did you mean" for a misspelt place after live changes (audit 61d: the suggestions' names
// were kept from the first suggestion, so a place unlearnt since made find throw a TypeError,
// and a place learnt since was never offered). Oracle: an engine built from scratch on the
// same records, whose answer (or error code and message) must be the live engine's.
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';

function tavern(i: number, area: string): VenueRecord {
  return {
    id: `${area}:${i}`,
    name: `Quib Tavern ${i}`,
    location: { type: 'Point', coordinates: [51.545 + i * 0.001, -0.05 + i * 0.001] },
    formattedAddress: `${i} Mill Road, ${area}, London E9 ${i}QQ`,
  } as VenueRecord;
}

const OTHER = { id: 'o:1', name: 'The Other', location: { type: 'Point', coordinates: [51.5, -0.1] } } as VenueRecord;

function findOutcome(engine: Engine, location: string): unknown {
  try {
    return { found: engine.find({ q: 'tavern', location }).totalFound };
  } catch (e) {
    const err = e as { code?: string; message: string };
    return { code: err.code ?? `thrown ${(e as Error).name}`, message: err.message };
  }
}

describe('place suggestions follow live changes', () => {
  it('a place unlearnt after a suggestion is no longer offered, and find answers unknown_place, not a TypeError', () => {
    const quib = [0, 1, 2, 3].map((i) => tavern(i, 'Quibblewick'));
    const engine = createEngine([OTHER]);
    engine.upsert(quib);
    const before = findOutcome(engine, 'Quiblewick');
    expect(before).toEqual(findOutcome(createEngine([OTHER, ...quib]), 'Quiblewick'));
    expect((before as { message: string }).message).toContain('did you mean "Quibblewick"');
    engine.remove(['Quibblewick:0', 'Quibblewick:1']); // two venues left: too few to learn the area
    expect(findOutcome(engine, 'Quiblewick')).toEqual(findOutcome(createEngine([OTHER, ...quib.slice(2)]), 'Quiblewick'));
    expect((findOutcome(engine, 'Quiblewick') as { code: string }).code).toBe('unknown_place');
  });

  it('a place learnt after a suggestion is offered', () => {
    const engine = createEngine([OTHER, ...[0, 1, 2, 3].map((i) => tavern(i, 'Quibblewick'))]);
    expect((findOutcome(engine, 'Quiblewick') as { message: string }).message).toContain('did you mean');
    const wobble = [0, 1, 2, 3].map((i) => tavern(i, 'Wobbleford'));
    engine.upsert(wobble);
    const fresh = createEngine([OTHER, ...[0, 1, 2, 3].map((i) => tavern(i, 'Quibblewick')), ...wobble]);
    expect(findOutcome(engine, 'Wobblefrod')).toEqual(findOutcome(fresh, 'Wobblefrod'));
    expect((findOutcome(engine, 'Wobblefrod') as { message: string }).message).toContain('did you mean "Wobbleford"');
  });
});
