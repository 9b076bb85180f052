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
 * (`giveBindingSlots`; a WeakMap for other emitters) and the listener methods are wrapped once on the two prototypes,
 * so traced and untraced requests keep one shape. An untraced emitter pays one slot read per listener call.
 */

type Listener = ((...args: unknown[]) => unknown) & { listener?: unknown };
type ListenerMethod = (this: object, event: string | symbol, listener: Listener) => unknown;

interface Binding {
  context: Context;
  /** Per event: the caller's listener → the one registered, so removeListener finds it. */
  listeners: Map<string | symbol, WeakMap<Listener, Listener>>;
}

/** `once` and `prependOnceListener` call these two, so they are bound through them. */
const ADD_METHODS = ['on', 'addListener', 'prependListener'] as const;
const REMOVE_METHODS = ['removeListener', 'off'] as const;

/** Own slot of a server request and response for its binding: see `giveBindingSlots`. */
const BINDING = Symbol('otel binding');
type Slotted = { [BINDING]?: Binding };

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
  const unslotted = new WeakMap<object, Binding>();
  const bindingOf = (emitter: object) => (BINDING in emitter ? (emitter as Slotted)[BINDING] : unslotted.get(emitter));

  class SharedShapeContextManager extends AsyncLocalStorageContextManager {
    override bind<T>(context: Context, target: T): T {
      if (target instanceof IncomingMessage || target instanceof ServerResponse) {
        // An emitter keeps its first binding.
        if (BINDING in target) (target as Slotted)[BINDING] ??= { context, listeners: new Map() };
        else if (!unslotted.has(target)) unslotted.set(target, { context, listeners: new Map() });
        return target;
      }
      return super.bind(context, target);
    }
  }
  const manager = new SharedShapeContextManager();

  for (const prototype of [IncomingMessage.prototype, ServerResponse.prototype] as unknown as Array<
    Record<string, ListenerMethod>
  >) {
    for (const name of ADD_METHODS) {
      const original = prototype[name];
      prototype[name] = function addListener(event, listener) {
        const binding = bindingOf(this);
        if (binding === undefined || typeof listener !== 'function') return original.call(this, event, listener);
        const bound = manager.bind(binding.context, listener) as Listener;
        // `once` registers a wrapper that removeListener(event, theCallersListener) finds by this property.
        if (listener.listener !== undefined) bound.listener = listener.listener;
        let byListener = binding.listeners.get(event);
        if (byListener === undefined) binding.listeners.set(event, (byListener = new WeakMap()));
        byListener.set(listener, bound);
        return original.call(this, event, bound);
      };
    }
    for (const name of REMOVE_METHODS) {
      const original = prototype[name];
      prototype[name] = function removeListener(event, listener) {
        const bound = bindingOf(this)?.listeners.get(event)?.get(listener);
        return original.call(this, event, bound ?? listener);
      };
    }
  }
  return manager;
}
