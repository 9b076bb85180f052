import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import type { Instrumentation } from '@opentelemetry/instrumentation';

/**
 * Keeps each pg pool checkout in its caller's trace context (docs/operations.md, Tracing, "Pool checkouts").
 *
 * pg-pool hands a freed client to the next waiter from inside whichever code freed it (a release, or a pulse a
 * checkout scheduled), and a client's socket runs every later callback in the context its connection was opened in.
 * So a waiter's query ran in another request's context: with tracing on, an untraced request's query became a span
 * of a traced request's trace (wrong traces, and query spans for requests never drawn), and a client opened by a
 * traced request kept doing that for the rest of its life. Measured on the device route, 300 requests traced and
 * none after: 2,997 INSERT spans in 70 s.
 *
 * Here `Pool.prototype.connect` (which `pool.query` and TypeORM's query runners use) runs in no context, so a client
 * opened for a checkout belongs to no request, and its callback resumes in the caller's context, so the waiter
 * resumes in its own. Registered after the pg instrumentation, this wrapper is the outer one; the instrumentation's
 * own pool patch, which would add metric listeners to the pool on a traced checkout, then always sees no parent.
 */
export function createPoolContextInstrumentation(): Instrumentation {
  const { InstrumentationBase, InstrumentationNodeModuleDefinition } =
    require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  type Callback = (...args: unknown[]) => void;
  type Connect = (this: unknown, callback?: Callback) => unknown;
  type PoolModule = { prototype: { connect: Connect } };
  // pg-pool is CommonJS (`module.exports = Pool`); an ESM namespace would carry it as `default`.
  const poolClass = (exports: PoolModule & { default?: PoolModule }) => exports.default ?? exports;

  class PoolContextInstrumentation extends InstrumentationBase {
    constructor() {
      super('@acme/pg-pool-context', '1.0.0', {});
    }

    protected init() {
      return new InstrumentationNodeModuleDefinition(
        'pg-pool',
        ['>=2.0.0 <4'],
        (exports: PoolModule) => {
          this._wrap(
            poolClass(exports).prototype,
            'connect',
            (original: Connect) =>
              function connect(this: unknown, callback?: Callback) {
                const caller = context.active();
                // Resumed where the caller was; entering a context only when dispatched from another one.
                const resume =
                  callback &&
                  ((...args: unknown[]) =>
                    context.active() === caller
                      ? callback(...args)
                      : context.with(caller, callback, undefined, ...args));
                // An untraced caller is in no context already: nothing to leave (most checkouts, with a low ratio).
                if (caller === ROOT_CONTEXT) return original.call(this, resume);
                return context.with(ROOT_CONTEXT, original, this, resume);
              },
          );
          return exports;
        },
        (exports: PoolModule) => this._unwrap(poolClass(exports).prototype, 'connect'),
      );
    }
  }
  return new PoolContextInstrumentation();
}
