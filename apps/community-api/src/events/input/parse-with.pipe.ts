import { PipeTransform } from '@nestjs/common';

/**
 * A parameter pipe running one of the events input validators (DTO + the spec's first-error rules), so the
 * handler receives the domain's typed input. The handler's parameter type is an interface, so the global
 * validation pipe leaves the raw value to this one (events errors are `event/invalid-*`, not `request/*`).
 */
export class ParseWith<T> implements PipeTransform<unknown, T> {
  constructor(private readonly parse: (value: unknown) => T) {}

  transform(value: unknown): T {
    return this.parse(value);
  }
}
