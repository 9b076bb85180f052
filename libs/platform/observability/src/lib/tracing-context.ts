import type { Context, ContextManager } from '@opentelemetry/api';
import type * as http from 'node:http';

/**
 * The SDK's AsyncLocalStorage context manager, except for incoming requests and their responses.
 *
 * The http instrumentation binds each traced request and response to its context. The SDK's manager does that by
 * giving the emitter nine own properties (its add/remove-listener methods and a map). Only the sampled tenth gets
 * them, so every property access on a request or response in Node, Fastify and Nest sees two object shapes and
 * goes megamorphic: in `perf`, megamorphic loads and shape transitions were a third of what tracing at 10 % added to
 * the main thread (docs/operations.md, Tracing). Here the binding lives in a slot every server exchange has
 * (`giveBindingSlots`; a WeakMap for other emitters) and `emit` is wrapped once on the two prototypes, so traced and
 * untraced requests keep one shape and their listeners stay the callers' own functions. An untraced emitter pays one
 * slot read per emit.
 */

type Emit = (this: object, event: string | symbol, ...args: unknown[]) => boolean;

/** Own slot of a server request and response for its bound context: see `giveBindingSlots`. */
const BINDING = Symbol('otel binding');
type Slotted = { [BINDING]?: Context };

/**
 * Gives a server request and its response their binding slot, empty, so every exchange has the same shape whether
 * it is traced or not (called for each request by the http edge, lib/tracing.ts). The binding lives on the
 * exchange and dies young with it: in a WeakMap, V8's scavenger kept each traced exchange's objects alive until the
 * next full collection (the heap grew 4 MB per scavenge with every request traced, docs/operations.md, Tracing).
 */
export function giveBindingSlots(request: object, response: object): void {
  (request as Slotted)[BINDING] = undefined;
  (response as Slotted)[BINDING] = undefined;
}

export function createContextManager(): ContextManager {
  const { AsyncLocalStorageContextManager } =
    require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  const { IncomingMessage, ServerResponse } = require('node:http') as typeof http;
  // Emitters without a slot (a client's response; a server without the edge) keep their binding here.
  const unslotted = new WeakMap<object, Context>();
  const bindingOf = (emitter: object) => (BINDING in emitter ? (emitter as Slotted)[BINDING] : unslotted.get(emitter));

  class SharedShapeContextManager extends AsyncLocalStorageContextManager {
    override bind<T>(context: Context, target: T): T {
      if (target instanceof IncomingMessage || target instanceof ServerResponse) {
        // An emitter keeps its first binding.
        if (BINDING in target) (target as Slotted)[BINDING] ??= context;
        else if (!unslotted.has(target)) unslotted.set(target, context);
        return target;
      }
      return super.bind(context, target);
    }
  }
  const manager = new SharedShapeContextManager();

  // A bound emitter emits in its context, so every listener runs there (added before or after the binding, and
  // removed by the caller's own function), without a wrapper per listener.
  for (const prototype of [IncomingMessage.prototype, ServerResponse.prototype] as unknown as Array<{ emit: Emit }>) {
    const original = prototype.emit;
    prototype.emit = function emit(this: object) {
      const context = bindingOf(this);
      // eslint-disable-next-line prefer-rest-params -- apply(arguments) allocates nothing once optimized; rest would
      if (context === undefined || manager.active() === context) return original.apply(this, arguments as never);
      // eslint-disable-next-line prefer-rest-params
      return manager.with(context, () => original.apply(this, arguments as never));
    } as Emit;
  }
  return manager;
}
