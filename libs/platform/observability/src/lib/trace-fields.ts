import { isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * `trace_id` and `span_id` of the span active where a log line is written, for pino's `mixin`. Only the API is
 * read here: with no OpenTelemetry SDK loaded (tracing off, the default) no span is ever active and every line
 * gets nothing (docs/operations.md, Tracing).
 */
export function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const context = span.spanContext();
  return isSpanContextValid(context) ? { trace_id: context.traceId, span_id: context.spanId } : {};
}
