import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Job } from 'bullmq';
import { tracingStarted } from '@acme/platform-observability';

/**
 * The trace context a job carries from where it was added to its processor, so the worker's spans (and their SQL)
 * join the trace of the request that enqueued it (docs/operations.md, Tracing).
 */
export interface TracedJobData {
  /** W3C `traceparent` (and `tracestate`): absent when tracing is off or nothing was being traced. */
  traceContext?: Record<string, string>;
}

/** `data` plus the active trace context; `data` itself (no field) when there is none, as with tracing off. */
export function withTraceContext<T extends object>(data: T): T & TracedJobData {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? { ...data, traceContext: carrier } : data;
}

const tracer = trace.getTracer('@acme/platform-queue');

/**
 * Runs a job's work in a consumer span whose parent is the context the job carries (a root span when it carries
 * none, e.g. enqueued by a reconciler). With tracing off it only calls `work`.
 */
export function runJobInTrace<T>(job: Job<TracedJobData>, work: () => Promise<T>): Promise<T> {
  if (!tracingStarted()) return work();
  const parent = propagation.extract(ROOT_CONTEXT, job.data?.traceContext ?? {});
  return tracer.startActiveSpan(
    `${job.queueName} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'bullmq',
        'messaging.operation.name': 'process',
        'messaging.destination.name': job.queueName,
        'messaging.message.id': job.id ?? '',
        'bullmq.job.name': job.name,
        'bullmq.job.attempt': job.attemptsMade + 1,
      },
    },
    parent,
    async (span) => {
      try {
        return await work();
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
