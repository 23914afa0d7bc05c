// POINT and PATH search: preferences, scoring, ordering, paging, travel. Re-exports only.
export {
  createSearchService,
  type SearchOptions,
  type SearchService,
  type SearchServiceOptions,
} from './search-service.js';
export { PART_WEIGHTS } from './match.js';
export { travelMinutes, DETOUR_FACTOR } from './travel.js';
export { routeHalfwayPoint } from './route-center.js';
export { parseUtcTimestamp } from './validate-request.js';
