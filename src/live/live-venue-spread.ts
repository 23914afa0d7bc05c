import { DensityGrid } from '../find/density-grid.js';
import { gazetteerCountriesOfCounts, outsideDefaultCountries } from '../places/gazetteer-countries.js';
import type { VenueStore } from '../store/venue-store.js';

/** A part of a live engine's data: a store and its hidden bytes (1: replaced or removed since). */
export interface DensitySide {
  readonly store: VenueStore;
  readonly hidden: Uint8Array;
}

/**
 * Where a live engine's current venues are, as place names read it (docs/find.md, place
 * names): their density grid, which a grid built from scratch on them equals (same cells,
 * same counts), and how many lie outside the default gazetteer countries (which gazetteer
 * the default resolver uses: gazetteer-countries.ts). Built from the base's own grid
 * (`baseGrid`, over all of `sides[0]`'s venues) less its hidden venues, plus the later
 * sides' (the runs: at most the pending changes) live venues: a copy of the base's occupied
 * cells and one pass over the base's coordinates. Kept from then on venue by venue
 * ({@link add}, {@link remove}) as changes come.
 */
export class LiveVenueSpread {
  readonly grid: DensityGrid;
  /** The gazetteer countries of the base's venues, hidden ones included (what the base engine's resolver uses). */
  readonly baseCountries: readonly string[] | null;
  private outside = 0;
  private total = 0;

  constructor(sides: readonly DensitySide[], baseGrid: DensityGrid) {
    this.grid = DensityGrid.empty();
    const { cells, counts } = baseGrid.cells();
    this.grid.addCells(cells, counts, 0, cells.length);
    let baseOutside = 0;
    sides.forEach(({ store, hidden }, s) => {
      const { lat, lon, size } = store;
      for (let i = 0; i < size; i++) {
        const out = outsideDefaultCountries(lat[i]!, lon[i]!);
        if (s === 0) {
          if (out) baseOutside++;
          if (hidden[i] !== 0) this.grid.remove(lat[i]!, lon[i]!);
        } else if (hidden[i] === 0) this.grid.add(lat[i]!, lon[i]!);
        if (hidden[i] === 0) {
          this.total++;
          if (out) this.outside++;
        }
      }
    });
    this.baseCountries = gazetteerCountriesOfCounts(baseOutside, sides[0]?.store.size ?? 0);
  }

  /** The gazetteer countries of the current venues. */
  countries(): readonly string[] | null {
    return gazetteerCountriesOfCounts(this.outside, this.total);
  }

  /** Counts one more current venue at (lat, lon), degrees. */
  add(lat: number, lon: number): void {
    this.grid.add(lat, lon);
    this.total++;
    if (outsideDefaultCountries(lat, lon)) this.outside++;
  }

  /** Takes out one current venue counted at (lat, lon). */
  remove(lat: number, lon: number): void {
    this.grid.remove(lat, lon);
    this.total--;
    if (outsideDefaultCountries(lat, lon)) this.outside--;
  }
}
