/**
 * The one continuous longitude range the map draws on (audit 64c F7). Hand-computed: round
 * Fiji the widest gap is the one over Greenwich, so the range starts at 179.5 E and 179.5 W
 * is drawn at 180.5; round Britain it starts at the westernmost point and nothing moves (not
 * even by rounding: a point moved a whole turn was drawn off the view).
 */
import { describe, expect, it } from 'vitest';
import { unwrapFrom, westEdge } from '../../src/widget/page/longitude-range.js';

describe('longitude range (audit 64c F7)', () => {
  it('astride the antimeridian: starts at the west one, the east ones move a turn', () => {
    const lons = [179.9, -179.5, 179.5, -179.9];
    expect(westEdge(lons)).toBe(179.5);
    expect(lons.map((lon) => unwrapFrom(179.5, lon))).toEqual([179.9, 180.5, 179.5, 180.1]);
  });

  it('elsewhere: the plain minimum, and every longitude drawn exactly as it is', () => {
    const lons = [-0.12583430223578826, -2.5876, 1.3, -2.5876];
    expect(westEdge(lons)).toBe(-2.5876);
    for (const lon of lons) expect(unwrapFrom(westEdge(lons), lon)).toBe(lon);
    for (const lon of [-0.12583430223578826, -2.59, 179.99, -180]) expect(unwrapFrom(westEdge([lon]), lon)).toBe(lon);
  });
});
