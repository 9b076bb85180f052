import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject } from 'class-validator';

export const MAX_EVENTS_PER_BATCH = 1000;

/** The documented shape (OpenAPI); IngestBodyPipe enforces it. */
export class IngestErrorsRequest {
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    minItems: 1,
    maxItems: MAX_EVENTS_PER_BATCH,
    description: 'error events; rule keys address their fields',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_EVENTS_PER_BATCH)
  @IsObject({ each: true })
  readonly events!: Record<string, unknown>[];
}
