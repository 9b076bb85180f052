import { createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { createContextManager, giveBindingSlots } from './tracing-context';

const KEY = createContextKey('request');
const manager = createContextManager();
const requestContext = ROOT_CONTEXT.setValue(KEY, 'traced request');
const seen = () => manager.active().getValue(KEY);

/** A server request and its response; `slotted`: given their binding slots, as the http edge gives every exchange. */
function exchange(slotted = false): { request: IncomingMessage; response: ServerResponse } {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  if (slotted) giveBindingSlots(request, response);
  return { request, response };
}

describe('the tracing context manager', () => {
  it('binds a request and its response without giving them a property an untraced one lacks', () => {
    const traced = exchange();
    const untraced = exchange();
    manager.bind(requestContext, traced.request);
    manager.bind(requestContext, traced.response);
    traced.request.on('data', () => undefined);
    untraced.request.on('data', () => undefined);
    expect(Reflect.ownKeys(traced.request)).toEqual(Reflect.ownKeys(untraced.request));
    expect(Reflect.ownKeys(traced.response)).toEqual(Reflect.ownKeys(untraced.response));
  });

  describe.each([
    ['kept apart from the exchange (a client response, a server without the edge)', false],
    ['kept in the exchange’s slot', true],
  ])('with the binding %s', (_where, slotted) => {
    it('runs the listeners of a bound request in its context, and an unbound one’s in the emitter’s', () => {
      const traced = exchange(slotted);
      const untraced = exchange(slotted);
      manager.bind(requestContext, traced.request);
      manager.bind(requestContext, traced.response);
      const calls: unknown[] = [];
      traced.request.on('end', () => calls.push(['request end', seen()]));
      traced.response.prependListener('finish', () => calls.push(['response finish', seen()]));
      untraced.request.addListener('end', () => calls.push(['untraced end', seen()]));
      traced.request.emit('end');
      traced.response.emit('finish');
      untraced.request.emit('end');
      expect(calls).toEqual([
        ['request end', 'traced request'],
        ['response finish', 'traced request'],
        ['untraced end', undefined],
      ]);
    });

    it('runs listeners added before the binding in its context too, and registers the callers’ own functions', () => {
      const { request } = exchange(slotted);
      const calls: unknown[] = [];
      const onData = (chunk: unknown) => calls.push([chunk, seen()]);
      request.on('data', onData);
      manager.bind(requestContext, request);
      request.emit('data', 'chunk');
      expect(calls).toEqual([['chunk', 'traced request']]);
      expect(request.listeners('data')).toEqual([onData]);
    });

    it('keeps the context of a listener that enters another one', () => {
      const { request } = exchange(slotted);
      manager.bind(requestContext, request);
      const other = ROOT_CONTEXT.setValue(KEY, 'job');
      const calls: unknown[] = [];
      request.on('end', () => manager.with(other, () => calls.push(seen())));
      request.on('end', () => calls.push(seen()));
      request.emit('end');
      expect(calls).toEqual(['job', 'traced request']);
    });

    it('removes a bound listener by the caller’s function, also one added with once', () => {
      const { request } = exchange(slotted);
      manager.bind(requestContext, request);
      const calls: string[] = [];
      const onAborted = () => calls.push('aborted');
      const onClose = () => calls.push('close');
      const onceTimeout = () => calls.push(`timeout in ${String(seen())}`);
      request.on('aborted', onAborted);
      request.once('close', onClose);
      request.once('timeout', onceTimeout);
      request.removeListener('aborted', onAborted);
      request.off('close', onClose);
      request.emit('aborted');
      request.emit('close');
      request.emit('timeout');
      request.emit('timeout');
      expect(calls).toEqual(['timeout in traced request']);
      expect(request.listenerCount('timeout')).toBe(0);
    });
  });

  it('keeps a slotted exchange’s binding in the exchange itself', () => {
    const traced = exchange(true);
    const untraced = exchange(true);
    manager.bind(requestContext, traced.request);
    const slot = (emitter: object) =>
      Object.getOwnPropertySymbols(emitter)
        .filter((key) => key.description === 'otel binding')
        .map((key) => Reflect.get(emitter, key) as unknown);
    expect(slot(traced.request)).toEqual([requestContext]);
    expect(slot(untraced.request)).toEqual([undefined]);
  });

  it('binds functions as the SDK’s manager does', () => {
    const bound = manager.bind(requestContext, () => seen());
    expect(bound()).toBe('traced request');
    expect(manager.with(requestContext, seen)).toBe('traced request');
    expect(seen()).toBeUndefined();
  });
});
