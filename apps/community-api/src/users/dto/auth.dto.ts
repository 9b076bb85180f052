import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsOptional, IsString } from 'class-validator';
import { CodePointLength, MaxCodePoints } from '@acme/platform-errors';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class SignUpRequest {
  @ApiProperty({ maxLength: 254 })
  @Transform(trim)
  @IsString()
  @MaxCodePoints(254)
  @IsEmail()
  readonly email: string;

  @ApiProperty({ minLength: 8, maxLength: 128 })
  @IsString()
  @CodePointLength(8, 128)
  readonly password: string;

  @ApiProperty({ required: false, maxLength: 100 })
  @IsOptional()
  @IsString()
  @CodePointLength(1, 100)
  readonly name?: string;
}

export class SignInRequest {
  @ApiProperty({ maxLength: 254 })
  @IsString()
  @CodePointLength(1, 254)
  readonly email: string;

  @ApiProperty({ maxLength: 128 })
  @IsString()
  @CodePointLength(1, 128)
  readonly password: string;
}

export class RefreshTokenRequest {
  @ApiProperty()
  @IsString()
  @CodePointLength(1, 512)
  readonly refreshToken: string;
}

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
