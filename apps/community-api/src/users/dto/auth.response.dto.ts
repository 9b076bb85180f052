import { ApiProperty } from '@nestjs/swagger';

export class UserResponse {
  @ApiProperty() readonly id: string;
  @ApiProperty() readonly projectId: string;
  @ApiProperty() readonly email: string;
  @ApiProperty({ nullable: true, type: String }) readonly name: string | null;
  @ApiProperty() readonly isVerified: boolean;
  @ApiProperty() readonly createdAt: string;
}

export class SessionResponse {
  @ApiProperty({ description: 'JWT, 30 minutes' }) readonly accessToken: string;
  @ApiProperty({ description: 'Opaque, rotating, 30 days' }) readonly refreshToken: string;
  @ApiProperty({ type: UserResponse }) readonly user: UserResponse;
}

export class TokensResponse {
  @ApiProperty() readonly accessToken: string;
  @ApiProperty() readonly refreshToken: string;
}

export class SuccessResponse {
  @ApiProperty() readonly success: boolean;
}
