/**
 * The tests' own name key, written apart from src/import/name-key.ts (the code under test):
 * NFKD, marks and apostrophes dropped, `&` = and, lower case, non-letters split, a leading
 * "the" dropped. Shared by the merge's real-data test and the node/way twin oracle.
 */
export function oracleNameKey(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['\u2018\u2019\u02bc`\u00b4]/g, '')
    .replace(/&/g, ' and ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
  if (words.length > 1 && words[0] === 'the') words.shift();
  return words.join(' ');
}
