/** Public API of the importers (re-exports only). */
export { importOsm, importOsmRows, collectRun, type ImportOptions, type ImportRun } from './osm-import.js';
export { importFhrs, importFhrsRows, type FhrsImportOptions } from './fhrs-import.js';
export { mergeVenues, fillGaps } from './merge.js';
export { ImportReport, type ImportReportJson, type SkipGroup, type SkippedRecord } from './import-report.js';
export {
  convertOsmOpeningHours,
  type OpeningHoursConversion,
  type OpeningHoursStatus,
} from './osm-opening-hours.js';
export { osmElementToVenue, type OsmElement, type OsmType, type MapOutcome } from './osm-to-venue.js';
export { fhrsRowToVenue, type FhrsRow } from './fhrs-to-venue.js';
export { featureCollectionRows, pointsLineRow, type OsmRow } from './osm-sources.js';
export { importOverture, type OvertureImportOptions } from './overture-import.js';
export { overturePlaceToVenue, type OverturePlace, type OverturePlaceFilter, type LonLatBox } from './overture-to-venue.js';
export { linkFhrsToOsmByName } from './fhrs-osm-join.js';
export { linkOvertureToOsm, SAME_NAME_METERS, SHARED_CONTACT_METERS } from './overture-osm-join.js';
