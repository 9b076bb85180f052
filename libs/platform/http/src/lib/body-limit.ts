import type { IncomingMessage } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { Readable } from 'node:stream';
import {
  applyDecorators,
  CallHandler,
  CanActivate,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { defer, from, mergeMap, Observable } from 'rxjs';
import { AppError, findTextProblemInChunks, PlatformErrorCode } from '@acme/platform-errors';
import { parseJsonInChunks } from './chunked-json';
import { bodyLimitBytes, GLOBAL_BODY_LIMIT, rawRequest } from './http-platform';
import { RouteMetadata } from './route-metadata';
import { OPAQUE_BODY, unstorableText } from './storable-text.guard';

const BODY_LIMIT = Symbol('BODY_LIMIT');
const DEFERRED = Symbol('acme.deferredBody');

/**
 * The route takes JSON or form bodies up to `limit` (express notation, e.g. '64mb'). Bodies over the global
 * limit are left unread by the engine, refused with 413 at once when over this limit, and otherwise read after
 * the route's guards (authentication first, so an anonymous caller never makes the service read them), by
 * DeferredBodyInterceptor. Bound here, not globally: a route without an interceptor skips Nest's RxJS chain.
 * Among a route's own interceptors it runs in decorator order, the lowest decorator first (so below `@HeavyRoute`,
 * the body is read before the concurrency slot is taken, as when it was global).
 */
export const BodyLimit = (limit: string) =>
  applyDecorators(SetMetadata(BODY_LIMIT, bodyLimitBytes(limit)), UseInterceptors(DeferredBodyInterceptor));

type DeferrableRequest = IncomingMessage & { [DEFERRED]?: true };

/** The media type without parameters, lower case ('' when absent). */
export function mediaTypeOf(request: IncomingMessage): string {
  return (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/** The media types the platform parses (configure-app.ts); any other body is left to its route. */
export const PARSED_TYPES = new Set(['application/json', 'application/x-www-form-urlencoded']);

/** Content-Length as a number (NaN when absent or unreadable: a chunked body). */
export const declaredLength = (request: IncomingMessage) => Number(request.headers['content-length'] ?? Number.NaN);

/**
 * Called by the engine's body parsing (configure-app.ts): a body declaring more than the global limit is left
 * in the socket, marked, for BodyLimitGuard and DeferredBodyInterceptor. Chunked bodies are not deferred: the
 * engine reads them up to the global limit.
 */
export function deferIfLarge(request: IncomingMessage, globalLimit: number): boolean {
  if (!PARSED_TYPES.has(mediaTypeOf(request)) || !(declaredLength(request) > globalLimit)) return false;
  (request as DeferrableRequest)[DEFERRED] = true;
  return true;
}

export const isDeferred = (request: IncomingMessage) => (request as DeferrableRequest)[DEFERRED] === true;

export function payloadTooLarge(limit: number): AppError {
  return new AppError(
    PlatformErrorCode.PAYLOAD_TOO_LARGE,
    'payload_too_large',
    `The request body is larger than this route accepts (${limit} bytes).`,
    { details: { limit } },
  );
}

/**
 * Reads a body into one buffer, refusing it (413) as soon as it declares or sends more than `limit` bytes; the
 * chunks read so far are dropped and the rest is discarded as it arrives, never buffered. `declared` is the
 * request's Content-Length (NaN when chunked).
 */
export function readBody(stream: Readable, limit: number, declared: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (declared > limit) return reject(payloadTooLarge(limit));
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
    };
    const fail = (error: unknown) => {
      cleanup();
      chunks.length = 0;
      stream.resume();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) fail(payloadTooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      if (!Number.isNaN(declared) && declared !== received)
        return reject(
          new AppError(PlatformErrorCode.MALFORMED_REQUEST, 'validation', 'The request body ended before its length.'),
        );
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received));
    };
    const onError = (error: Error) => fail(error);
    const onAborted = () =>
      fail(new AppError(PlatformErrorCode.REQUEST_ABORTED, 'validation', 'The request was aborted.'));
    stream.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}

const malformedJson = () =>
  new AppError(PlatformErrorCode.MALFORMED_BODY, 'validation', 'The request body is not valid JSON.');

/** JSON bodies from this size on are parsed in pieces that yield (chunked-json.ts); smaller ones in one call. */
export const CHUNKED_PARSE_FROM = 512 * 1024;

/** JSON as body-parser's strict mode reads it (an object or array), or a form as node:querystring reads it. */
export async function parseBody(mediaType: string, body: Buffer): Promise<unknown> {
  const text = body.toString('utf8');
  if (mediaType === 'application/x-www-form-urlencoded') return parseQueryString(text);
  if (text.trim() === '') return {};
  if (!/^[\s]*[[{]/.test(text)) throw malformedJson();
  try {
    return text.length < CHUNKED_PARSE_FROM ? (JSON.parse(text) as unknown) : await parseJsonInChunks(text);
  } catch {
    throw malformedJson();
  }
}

/** Global guard, first of all: a deferred body the route does not accept is a 413 before anything reads it. */
@Injectable()
export class BodyLimitGuard implements CanActivate {
  private readonly limits: RouteMetadata<number>;

  constructor(reflector: Reflector) {
    this.limits = new RouteMetadata(reflector, BODY_LIMIT);
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = rawRequest(context.switchToHttp().getRequest<IncomingMessage>());
    if (!isDeferred(request)) return true;
    const limit = this.limits.of(context);
    if (limit === undefined || declaredLength(request) > limit)
      throw payloadTooLarge(limit ?? bodyLimitBytes(GLOBAL_BODY_LIMIT));
    return true;
  }
}

/**
 * The interceptor of `@BodyLimit` routes (after every guard, before pipes): reads a deferred body within the route's limit, parses
 * it, and checks its text as StorableTextGuard does for bodies the engine parsed.
 */
@Injectable()
export class DeferredBodyInterceptor implements NestInterceptor {
  private readonly limits: RouteMetadata<number>;
  private readonly opaqueBody: RouteMetadata<boolean>;

  constructor(reflector: Reflector) {
    this.limits = new RouteMetadata(reflector, BODY_LIMIT);
    this.opaqueBody = new RouteMetadata(reflector, OPAQUE_BODY);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const holder = context.switchToHttp().getRequest<{ body?: unknown }>();
    const request = rawRequest(holder as IncomingMessage);
    if (!isDeferred(request)) return next.handle();
    const limit = this.limits.of(context) ?? bodyLimitBytes(GLOBAL_BODY_LIMIT);
    const checkStrings = this.opaqueBody.of(context) !== true;
    return defer(() => from(this.read(request, limit, checkStrings))).pipe(
      mergeMap((body) => {
        holder.body = body;
        return next.handle();
      }),
    );
  }

  /** Big bodies are parsed and walked in slices that yield, so reading one never holds the event loop long. */
  private async read(request: IncomingMessage, limit: number, checkStrings: boolean): Promise<unknown> {
    const body = await parseBody(mediaTypeOf(request), await readBody(request, limit, declaredLength(request)));
    const problem = await findTextProblemInChunks(body, { checkStrings });
    if (problem) throw unstorableText(problem, 'body');
    return body;
  }
}
