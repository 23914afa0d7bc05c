/**
 * The response shapes the widget reads, as type-only imports of the service's own schemas
 * (erased by the bundler), so the page and the API cannot drift apart silently.
 */
export type { SearchResponse, SearchEstablishment, SearchVocabulary, Preferences, MatchScore } from '../../schema/search.js';
export type { FindResponse, FindEstablishment } from '../../schema/find.js';
export type { BasicDetails, MenuList } from '../../schema/details.js';
