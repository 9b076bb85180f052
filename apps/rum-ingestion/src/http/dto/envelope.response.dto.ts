import { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/** The OpenAPI shape of `{request_id, data}` (the spec's success envelope) around `data`'s class. */
export function enveloped<T>(data: Type<T>): Type<{ request_id: string; data: T }> {
  class Envelope {
    @ApiProperty({ description: 'Also sent as the Service-Request-Id header' }) readonly request_id!: string;
    @ApiProperty({ type: data }) readonly data!: T;
  }
  Object.defineProperty(Envelope, 'name', { value: `${data.name}Envelope` });
  return Envelope;
}
