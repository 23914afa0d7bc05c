/**
 * Postal rows of GeoNames' GB file that do not say where a named place is (read by
 * build-gb-gazetteer.ts).
 */

// Royal Mail's non-geographic districts live in src/places (loose-area.ts reads them too); one list.
export { NON_GEOGRAPHIC_OUTCODES } from '../../src/places/non-geographic-outcodes.js';

/**
 * Rows whose name the source places in a district it is not in, each with the evidence
 * (`code name`, as in the file). PA80 is an Oban district (the list above; its point here lies
 * in Morvern, by Lochaline), and its one row, "Castlebay", gives as its county "Isle of
 * Barra", the post town of HS9, where the file has Castlebay again at its own point
 * (56.955,-7.4892), 110 km west. The row's point still places PA80; only its name is not
 * taken as a place (audit 65a F17).
 */
export const MISNAMED_POSTAL_ROWS: ReadonlySet<string> = new Set(['PA80 Castlebay']);
