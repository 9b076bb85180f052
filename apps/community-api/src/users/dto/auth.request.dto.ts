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
