/** `venue-search/http`: the HTTP service (the fastify adapter), with the accounts module it bills through. */
export { buildApp, type BuildAppOptions } from './app.js';
export type { AtInstant, EngineLike, FindParams } from '../service/engine-like.js';
export * from '../accounts/index.js';
export { HttpError, toErrorResponse, type ErrorEnvelope, type ErrorType } from './http-errors.js';
