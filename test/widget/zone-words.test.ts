/**
 * Audit 64c F4: "open at a chosen time" names the venues' zone in words with its offset on
 * the chosen date, not as an IANA id ("Europe/Isle_of_Man"). Oracle: the offsets by hand.
 * London and the Isle of Man keep GMT (UTC+0) in winter and BST (UTC+1, from the last Sunday
 * of March to the last Sunday of October) in summer; Fiji keeps UTC+12 all year (no summer
 * time since 2022).
 */
import { describe, expect, it } from 'vitest';
import { zoneWords } from '../../src/widget/page/zoned-time.js';

const SUMMER = Date.UTC(2026, 6, 6, 8, 45); // Mon 6 Jul 2026
const WINTER = Date.UTC(2026, 0, 15, 12, 0); // Thu 15 Jan 2026

describe('the chosen time\'s zone in words (audit 64c F4)', () => {
  it.each([
    ['Europe/London', SUMMER, 'UTC+1'],
    ['Europe/London', WINTER, 'UTC+0'],
    ['Europe/Isle_of_Man', SUMMER, 'UTC+1'],
    ['Europe/Isle_of_Man', WINTER, 'UTC+0'],
    ['Pacific/Fiji', SUMMER, 'UTC+12'],
    ['Pacific/Fiji', WINTER, 'UTC+12'],
  ])('%s at %d: names the offset %s, in words, never the id', (zone, at, offset) => {
    const words = zoneWords(zone, at);
    expect(words).toContain(`${offset} on that date)`);
    expect(words).not.toContain(zone);
    expect(words).not.toMatch(/[_/]/);
  });

  it('the Isle of Man is named as such, Fiji as Fiji', () => {
    expect(zoneWords('Europe/Isle_of_Man', SUMMER)).toMatch(/^Isle of Man\b/);
    expect(zoneWords('Pacific/Fiji', WINTER)).toMatch(/^Fiji\b/);
  });
});
