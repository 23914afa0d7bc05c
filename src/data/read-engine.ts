import { checkEngineOptions, Engine, type EngineOptions } from '../engine.js';
import { VenueStoreBuilder } from '../store/venue-store-builder.js';
import { checkCallOptions } from '../call-options.js';
import { READ_VENUES_OPTIONS, readVenuesEncodedInto, type readVenues, type ReadVenuesOptions, type ReadVenuesResult } from './read-venues.js';

/** The read options and the engine's (its records are validated as they are read: no `validate`). */
const CREATE_ENGINE_FROM_FILE_OPTIONS = [...READ_VENUES_OPTIONS, 'places', 'recordCacheSize'];

export interface ReadEngineResult extends Omit<ReadVenuesResult, 'venues'> {
  readonly engine: Engine;
}

/**
 * Reads a venue file (or stream) as {@link readVenues} does, with the same validation, errors,
 * rejects and options, and builds the engine over its records as they are read: each record
 * goes into the engine's own compact form the moment it is admitted and is not kept, so the
 * records never pile up as objects (at 1M venues, about 900 MB of them, which the garbage
 * collector would copy and mark while the file is read). The engine is the one
 * `createEngine((await readVenues(source, options)).venues, options)` builds.
 */
export async function createEngineFromFile(source: Parameters<typeof readVenues>[0], options: ReadVenuesOptions & Omit<EngineOptions, 'validate'> = {}): Promise<ReadEngineResult> {
  checkCallOptions(options, CREATE_ENGINE_FROM_FILE_OPTIONS);
  const { places, recordCacheSize } = options;
  const engineOptions = checkEngineOptions({ ...(places !== undefined ? { places } : {}), ...(recordCacheSize !== undefined ? { recordCacheSize } : {}) });
  let builder: VenueStoreBuilder | null = null;
  const { rejects, format } = await readVenuesEncodedInto(source, options, (expected) => (builder = new VenueStoreBuilder(expected)));
  return { engine: new Engine(builder ?? new VenueStoreBuilder(0), engineOptions), rejects, format };
}
