import { ApiProperty } from '@nestjs/swagger';

export class VapidPublicKeyResponse {
  @ApiProperty({ description: 'URL-safe base64 P-256 public key (applicationServerKey)' }) readonly publicKey: string;
}

export class PushReportResponse {
  @ApiProperty() readonly delivered: number;
  @ApiProperty() readonly failed: number;
  @ApiProperty() readonly removed: number;
  @ApiProperty() readonly skipped: number;
}
