import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GB_GAZETTEER_FILE, gazetteerDataDir, NEIGHBOUR_GAZETTEER_FILE } from '../../src/places/gazetteer.js';
import { placeKey } from '../../src/places/place-name.js';

/**
 * The place key as the documented rule writes it for any text (written out here, apart from
 * the code: NFKD, Latin marks dropped, lower case, the letters NFKD leaves whole folded,
 * apostrophes removed, `&` read "and", other non-letters-or-digits one space, "saint" "st").
 * placeKey takes a shorter path for ASCII text; it must give the same key.
 */
const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
function ruleKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => FOLD[c]!)
    .replace(/['\u2018\u2019\u02bb\u02bc\u0060\u00b4]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/\bsaint\b/g, 'st');
}

/** Seeded LCG (deterministic cases). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('placeKey of ASCII names', () => {
  it('equals the rule for every name of the embedded gazetteer files', () => {
    let names = 0;
    for (const file of [GB_GAZETTEER_FILE, NEIGHBOUR_GAZETTEER_FILE]) {
      for (const line of readFileSync(gazetteerDataDir() + file, 'utf8').split('\n')) {
        if (line === '' || line.startsWith('#')) continue;
        const f = line.split('\t');
        const name = file === GB_GAZETTEER_FILE ? f[1]! : f[0]!;
        expect(placeKey(name), name).toBe(ruleKey(name));
        names++;
      }
    }
    expect(names).toBeGreaterThan(30_000);
  });

  it('equals the rule for every ASCII character between words, and for random ASCII texts', () => {
    for (let c = 0; c < 128; c++) {
      const text = `St${String.fromCharCode(c)}Saint${String.fromCharCode(c)}Mary's`;
      expect(placeKey(text), JSON.stringify(text)).toBe(ruleKey(text));
    }
    const pieces = ['Saint', 'saint', 'SAINT', 'St.', 'Mary', "'", '`', '&', '_', '-', ' ', '  ', ',', '(', ')', '0', '42', 'Ab', 'x', '\t', '/', '.', 'saints', 'Saint-'];
    const next = rng(19);
    for (let k = 0; k < 5_000; k++) {
      let text = '';
      const n = 1 + Math.floor(next() * 8);
      for (let p = 0; p < n; p++) text += next() < 0.15 ? String.fromCharCode(Math.floor(next() * 128)) : pieces[Math.floor(next() * pieces.length)]!;
      expect(placeKey(text), JSON.stringify(text)).toBe(ruleKey(text));
    }
  });

  it('still folds non-ASCII names by the Unicode path', () => {
    for (const name of ['Tromsø', 'Łódź', 'Gießen', 'Nukuʻalofa', 'Sainte-Anne-des-Monts', 'Saint‐Étienne', 'Ærøskøbing']) expect(placeKey(name), name).toBe(ruleKey(name));
  });
});
