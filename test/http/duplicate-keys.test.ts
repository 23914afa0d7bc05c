/**
 * duplicateKeyPlace on random JSON texts. Oracles: the generator, which knows where it wrote a
 * key its object already had (in the text's order), and Python's json module (an
 * object_pairs_hook sees every pair, repeats included) for whether any object repeats a key.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../scripts/fixtures/random.js';
import { duplicateKeyPlace } from '../../src/http/duplicate-keys.js';

// keys and strings with JSON's awkward characters: quotes, backslashes (before a quote, at the end), braces, commas, colons, non-ASCII
const WORDS = ['a', 'b', 'lat', 'x"y', '{', '}', '[', ',', ':', 'back\\slash', 'ends\\', '\\"', '\\\\"\\', 'é', '😀', ''];

/** A text, and the place of the first key written twice in one object (undefined if none). */
function randomJson(next: () => number): { text: string; expected: string | undefined } {
  let expected: string | undefined;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  // a key or string written plainly, or with every UTF-16 unit escaped as \uXXXX
  const quoted = (word: string) =>
    next() < 0.5 ? JSON.stringify(word) : `"${Array.from({ length: word.length }, (_, i) => `\\u${word.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`;
  const place = (parent: string, name: string | number) => (parent === '' ? String(name) : `${parent}.${name}`);
  const value = (at: string, depth: number): string => {
    const r = next();
    if (depth < 4 && r < 0.3) {
      const seen = new Set<string>();
      const parts: string[] = [];
      const count = Math.floor(next() * 5);
      for (let k = 0; k < count; k++) {
        // a repeat one time in six
        const key = seen.size > 0 && next() < 1 / 6 ? pick([...seen]) : pick(WORDS);
        if (seen.has(key) && expected === undefined) expected = place(at, key);
        seen.add(key);
        parts.push(`${quoted(key)} : ${value(place(at, key), depth + 1)}`);
      }
      return `{ ${parts.join(' ,\n')} }`;
    }
    if (depth < 4 && r < 0.5) {
      const count = Math.floor(next() * 4);
      return `[${Array.from({ length: count }, (_, i) => value(place(at, i), depth + 1)).join(',')}]`;
    }
    return pick([() => quoted(pick(WORDS)), () => String(Math.round(next() * 1e6) / 100), () => 'true', () => 'null', () => '-1.5e3'])();
  };
  const text = value('', 0);
  return { text, expected };
}

/** Python's verdict for each text: does any object repeat a key? */
function pythonSaysRepeated(texts: readonly string[]): boolean[] {
  const program = `
import json, sys
def pairs(p):
    keys = [k for k, _ in p]
    if len(set(keys)) != len(keys):
        raise KeyError('repeated')
    return dict(p)
out = []
for text in json.load(sys.stdin):
    try:
        json.loads(text, object_pairs_hook=pairs)
        out.append(False)
    except KeyError:
        out.append(True)
print(json.dumps(out))
`;
  return JSON.parse(execFileSync('python3', ['-c', program], { input: JSON.stringify(texts), encoding: 'utf8' })) as boolean[];
}

describe('duplicateKeyPlace', () => {
  it('names the first key repeated in its object on 2,000 random texts, as the generator wrote it; Python agrees on which texts repeat one', () => {
    const next = seededRandom(72);
    const cases = Array.from({ length: 2000 }, () => randomJson(next));
    // the texts are valid JSON, as the function requires
    for (const { text } of cases) JSON.parse(text);
    expect(cases.map(({ text }) => duplicateKeyPlace(text))).toEqual(cases.map((c) => c.expected));
    expect(pythonSaysRepeated(cases.map((c) => c.text))).toEqual(cases.map((c) => c.expected !== undefined));
    // both kinds are well represented
    expect(cases.filter((c) => c.expected !== undefined).length).toBeGreaterThan(200);
    expect(cases.filter((c) => c.expected === undefined).length).toBeGreaterThan(200);
  });

  it('hand-made cases: the root, an escaped repeat, a repeat only across objects, a string that looks like keys, a body nested 20,000 deep', () => {
    expect(duplicateKeyPlace('{"limit":5,"limit":500}')).toBe('limit');
    expect(duplicateKeyPlace('{"locations":[{"lat":1},{"lat":1,"\\u006cat":2}]}')).toBe('locations.1.lat');
    expect(duplicateKeyPlace('{"a":{"x":1},"b":{"x":1},"x":[{"x":1}]}')).toBeUndefined();
    expect(duplicateKeyPlace('{"a":"\\"a\\":1,\\"a\\":2","b":"}{"}')).toBeUndefined();
    expect(duplicateKeyPlace('[1,"a",{"":1,"":2}]')).toBe('2.');
    const depth = 20_000;
    expect(duplicateKeyPlace(`{"x":${'['.repeat(depth)}{"k":1,"k":2}${']'.repeat(depth)}}`)).toBe(`x${'.0'.repeat(depth)}.k`);
  });
});
