import { HttpException } from '@nestjs/common';
import { AppError, kindForStatus, STATUS_BY_KIND } from './app-error';
import { databaseUnavailable, instanceBusy, isDatabaseUnavailable, overloadOf } from './database-unavailable';
import { databaseRefusedValue } from './database-value-refused';
import { PlatformErrorCode } from './platform-error-code';

export interface NormalizedError {
  error: AppError;
  status: number;
  /** True when the failure is ours, not the client's: it is logged with an id and its text is hidden. */
  unexpected: boolean;
}

/** Errors raised by body parsers and other middleware carry a 4xx `status` and an `expose` flag. */
interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  /** Fastify's error code (FST_ERR_BAD_URL comes through `frameworkErrors` as is). */
  code?: string;
  expose?: boolean;
  message?: string;
}

const CODE_BY_PARSER_TYPE: Record<string, string> = {
  'entity.parse.failed': 'MALFORMED_BODY',
  'entity.too.large': 'PAYLOAD_TOO_LARGE',
  'encoding.unsupported': 'UNSUPPORTED_ENCODING',
  'charset.unsupported': 'UNSUPPORTED_ENCODING',
  'request.aborted': 'REQUEST_ABORTED',
};

export function normalizeError(thrown: unknown): NormalizedError {
  if (thrown instanceof AppError) {
    return { error: thrown, status: STATUS_BY_KIND[thrown.kind], unexpected: thrown.kind === 'internal' };
  }
  if (thrown instanceof HttpException) {
    const status = thrown.getStatus();
    const { code, message } = describeHttpException(status, thrown.message);
    return { error: new AppError(code, kindForStatus(status), message), status, unexpected: status >= 500 };
  }
  const httpLike = thrown as HttpLikeError | null;
  if (httpLike?.code === 'FST_ERR_BAD_URL') {
    // Fastify's router: a path with a broken percent-escape.
    return {
      error: new AppError(
        PlatformErrorCode.MALFORMED_URI,
        'validation',
        'The request path is not valid percent-encoding.',
      ),
      status: 400,
      unexpected: false,
    };
  }
  const status = httpLike?.status ?? httpLike?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = CODE_BY_PARSER_TYPE[httpLike?.type ?? ''] ?? `HTTP_${status}`;
    const message =
      code === 'MALFORMED_BODY' ? 'The request body is not valid JSON.' : (httpLike?.message ?? 'Bad Request');
    return { error: new AppError(code, kindForStatus(status), message), status, unexpected: false };
  }
  // PostgreSQL unreachable is a transient outage, not a bug: 503 with Retry-After (still logged).
  if (isDatabaseUnavailable(thrown)) {
    // A pool timeout raised while this instance was saturated is overload, not an outage (docs/operations.md).
    if (overloadOf(thrown)) return { error: instanceBusy(thrown), status: 503, unexpected: true };
    return { error: databaseUnavailable(thrown), status: 503, unexpected: true };
  }
  // A value PostgreSQL refused (too long, out of range, an impossible date) is the client's: 400, not 500.
  const refused = databaseRefusedValue(thrown);
  if (refused) return { error: refused, status: 400, unexpected: false };
  return {
    error: new AppError(PlatformErrorCode.INTERNAL, 'internal', 'Internal server error', { cause: thrown }),
    status: 500,
    unexpected: true,
  };
}

/** Nest maps body-parser's SyntaxError and Express's URIError to a bare 400; name them for presenters. */
function describeHttpException(status: number, message: string): { code: string; message: string } {
  if (status === 404) return { code: 'ROUTE_NOT_FOUND', message: 'Not Found' };
  if (status === 400 && /JSON/i.test(message))
    return { code: 'MALFORMED_BODY', message: 'The request body is not valid JSON.' };
  if (status === 400) return { code: 'MALFORMED_REQUEST', message: 'The request could not be parsed.' };
  // Fastify's body limit and unknown media types reach filters as these exceptions.
  if (status === 413) return { code: 'PAYLOAD_TOO_LARGE', message };
  if (status === 415) return { code: 'UNSUPPORTED_MEDIA_TYPE', message };
  return { code: `HTTP_${status}`, message };
}
