import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/* Response shapes; the request DTOs (validated by the global pipe) are in ./input. */

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
