import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { imageOptionsSchema } from './image-options.dto';

/** OpenAPI description of the create body; validation itself is the events lib's (one path for JSON and multipart). */
export class CreateEventRequest {
  @ApiProperty({ minLength: 1, maxLength: 300 }) readonly title: string;
  @ApiProperty({ format: 'date-time', description: 'RSVPs close at this moment' }) readonly startTime: string;
  @ApiProperty({ enum: ['online', 'physical', 'hybrid'] }) readonly type: string;
  @ApiPropertyOptional() readonly description?: string;
  @ApiPropertyOptional({ format: 'date-time' }) readonly endTime?: string;
  @ApiPropertyOptional({ description: 'IANA time zone' }) readonly timezone?: string;
  @ApiPropertyOptional({ description: 'Required for online and hybrid' }) readonly url?: string;
  @ApiPropertyOptional() readonly venueName?: string;
  @ApiPropertyOptional({ description: 'physical/hybrid: address or location required' }) readonly address?: string;
  @ApiPropertyOptional({
    description: '{latitude, longitude}; a JSON string on multipart',
    type: 'object',
    additionalProperties: true,
  })
  readonly location?: object;
  @ApiPropertyOptional({ format: 'uuid' }) readonly spaceId?: string;
  @ApiPropertyOptional({ enum: ['public', 'members', 'invite'], default: 'public' }) readonly visibility?: string;
  @ApiPropertyOptional({ minimum: 1 }) readonly capacity?: number;
  @ApiPropertyOptional({ default: true }) readonly allowMaybe?: boolean;
  @ApiPropertyOptional({ default: true }) readonly guestListVisible?: boolean;
  @ApiPropertyOptional({ type: [String], description: 'a JSON string on multipart' }) readonly hostIds?: string[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'up to 1 MB' })
  readonly metadata?: object;
  @ApiPropertyOptional({ description: 'service or master key only' }) readonly userId?: string;
  @ApiPropertyOptional({ type: 'string', format: 'binary', description: 'multipart only; needs cover.options' })
  readonly cover?: unknown;
  @ApiPropertyOptional(
    imageOptionsSchema('cover.options', {
      mode: 'exact-dimensions',
      dimensions: { thumb: { width: 150, height: 150 }, card: { width: 600, height: 400 } },
    }),
  )
  readonly coverOptions?: string;
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', format: 'binary' },
    description: 'up to 10; needs gallery.options',
  })
  readonly gallery?: unknown;
  @ApiPropertyOptional(
    imageOptionsSchema('gallery.options', {
      mode: 'aspect-ratio-width-based',
      aspectRatio: { width: 4, height: 3 },
      widths: { small: 400, large: 1200 },
    }),
  )
  readonly galleryOptions?: string;
}

export class RsvpRequest {
  @ApiProperty({ enum: ['going', 'maybe', 'not_going'] }) readonly status: string;
  @ApiPropertyOptional({ description: 'service or master key only' }) readonly userId?: string;
}

export class WithdrawRsvpRequest {
  @ApiPropertyOptional({ description: 'service or master key only' }) readonly userId?: string;
}

export class ImageViewResponse {
  @ApiProperty() readonly url: string;
  @ApiProperty() readonly width: number;
  @ApiProperty() readonly height: number;
  @ApiProperty() readonly size: number;
  @ApiProperty() readonly format: string;
}

export class EventFileResponse {
  @ApiProperty() readonly id: string;
  @ApiProperty({ enum: ['cover', 'gallery'] }) readonly role: string;
  @ApiProperty() readonly position: number;
  @ApiProperty() readonly originalName: string;
  @ApiProperty({ type: ImageViewResponse }) readonly original: ImageViewResponse;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/ImageViewResponse' } })
  readonly variants: Record<string, ImageViewResponse>;
  @ApiProperty({ type: 'object', additionalProperties: true }) readonly metadata: object;
  @ApiProperty() readonly createdAt: string;
}

export class RsvpCountsResponse {
  @ApiProperty() readonly going: number;
  @ApiProperty() readonly maybe: number;
  @ApiProperty() readonly not_going: number;
}

export class EventResponse {
  @ApiProperty() readonly id: string;
  @ApiProperty() readonly projectId: string;
  @ApiProperty() readonly userId: string;
  @ApiProperty() readonly title: string;
  @ApiProperty({ nullable: true, type: String }) readonly description: string | null;
  @ApiProperty() readonly startTime: string;
  @ApiProperty({ nullable: true, type: String }) readonly endTime: string | null;
  @ApiProperty({ nullable: true, type: String }) readonly timezone: string | null;
  @ApiProperty({ enum: ['online', 'physical', 'hybrid'] }) readonly type: string;
  @ApiProperty({ nullable: true, type: String }) readonly url: string | null;
  @ApiProperty({ nullable: true, type: String }) readonly venueName: string | null;
  @ApiProperty({ nullable: true, type: String }) readonly address: string | null;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true, description: 'GeoJSON Point [lng, lat]' })
  readonly location: object | null;
  @ApiProperty({ nullable: true, type: String }) readonly spaceId: string | null;
  @ApiProperty({ enum: ['public', 'members', 'invite'] }) readonly visibility: string;
  @ApiProperty({ enum: ['active', 'cancelled'] }) readonly status: string;
  @ApiProperty() readonly allowMaybe: boolean;
  @ApiProperty() readonly guestListVisible: boolean;
  @ApiProperty({ nullable: true, type: Number }) readonly capacity: number | null;
  @ApiProperty({ type: [String] }) readonly hostIds: string[];
  @ApiProperty({ type: 'object', additionalProperties: true }) readonly metadata: object;
  @ApiProperty({ type: RsvpCountsResponse }) readonly rsvpCounts: RsvpCountsResponse;
  @ApiPropertyOptional({ type: [EventFileResponse] }) readonly files?: EventFileResponse[];
  @ApiProperty() readonly createdAt: string;
  @ApiProperty() readonly updatedAt: string;
}

export class PaginationResponse {
  @ApiProperty() readonly page: number;
  @ApiProperty() readonly pageSize: number;
  @ApiProperty() readonly totalPages: number;
  @ApiProperty() readonly totalItems: number;
  @ApiProperty() readonly hasMore: boolean;
}

export class EventPageResponse {
  @ApiProperty({ type: [EventResponse] }) readonly data: EventResponse[];
  @ApiProperty({ type: PaginationResponse }) readonly pagination: PaginationResponse;
}

export class GuestResponse {
  @ApiProperty() readonly userId: string;
  @ApiProperty({ enum: ['going', 'maybe', 'not_going'] }) readonly status: string;
  @ApiProperty() readonly createdAt: string;
  @ApiProperty() readonly updatedAt: string;
}

export class GuestPageResponse {
  @ApiProperty({ type: [GuestResponse] }) readonly data: GuestResponse[];
  @ApiProperty({ type: PaginationResponse }) readonly pagination: PaginationResponse;
}
