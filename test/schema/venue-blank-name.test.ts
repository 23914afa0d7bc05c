/**
 * Audit 73b: a venue name of white space alone (`"   "`) was accepted, while an empty one was
 * refused: a venue nothing can find by name and a list shows blank. Now it is refused alike,
 * naming the field and the value, through readVenues, createEngine, engine.upsert and PUT
 * /admin/venues; a name with any other character (a letter, a digit, a sign) is kept as given.
 * Oracle: JavaScript's white space written out by hand (the characters String.prototype.trim
 * removes, per ECMA-262 WhiteSpace and LineTerminator), and the messages written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { FINE, itRefusesEverywhere, type RefusalCase } from './support/venue-refusals.js';

const RULE = 'must hold a character other than white space';

const BLANK_NAMES = [' ', '   ', '\t', '\n', ' \r\n ', '\u00a0', '\u2003\u3000', '\ufeff', '\u2028'];

const CASES: readonly RefusalCase[] = BLANK_NAMES.map((name) => [{ ...FINE, id: 't:1', name }, `field name: ${RULE}; got ${JSON.stringify(name)}`]);

describe('a venue name of white space alone is refused, as an empty one is (audit 73b)', () => {
  itRefusesEverywhere(CASES);

  it('a name with one other character is kept as given, its spaces included', () => {
    for (const name of [' a ', '\u00a07', ' - ', '\u200b']) {
      const engine = createEngine([{ ...FINE, name } as never]);
      expect(engine.basic(FINE.id).name, JSON.stringify(name)).toBe(name);
    }
  });
});
