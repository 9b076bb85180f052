/**
 * The AsyncLocalStorage that nestjs-pino's PinoLogger (and so Nest's Logger) reads its request logger from.
 * nestjs-pino 4.6 leaves it out of its index, so this is the one file that reaches it by its deep path (lint
 * refuses the path anywhere else); pino-request-store.spec.ts fails if an upgrade moves it.
 */
// eslint-disable-next-line no-restricted-imports
export { storage as pinoRequestStore, Store as PinoRequestStore } from 'nestjs-pino/storage';
