import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { AcceptWhen, CodePointLength, MaxCodePoints, hasExactlyKeys } from '@acme/platform-errors';
import { TOKEN_FORMATS, TOKEN_LENGTH, VERIFICATION_MODES } from '@acme/community-verification';
import type { TokenFormat, VerificationMode } from '@acme/community-verification';

const URL_RULES = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

export class SendVerificationRequest {
  @ApiProperty({ enum: VERIFICATION_MODES, required: false, default: 'code' })
  @IsOptional()
  @IsIn(VERIFICATION_MODES)
  readonly mode?: VerificationMode;

  @ApiProperty({
    enum: TOKEN_FORMATS,
    required: false,
    default: 'hex',
    description:
      'Code mode only (links are always hex). hex: 64 characters naming their user; numeric: 12 digits; alpha and alphanumeric: at least 8 characters',
  })
  @IsOptional()
  @IsIn(TOKEN_FORMATS)
  readonly tokenFormat?: TokenFormat;

  @ApiProperty({
    required: false,
    minimum: TOKEN_LENGTH.min,
    maximum: TOKEN_LENGTH.max,
    default: TOKEN_LENGTH.default,
    description: 'Accepted; the server never issues a code shorter than its floor for the format (see tokenFormat)',
  })
  @IsOptional()
  @IsInt()
  @Min(TOKEN_LENGTH.min)
  @Max(TOKEN_LENGTH.max)
  readonly tokenLength?: number;

  @ApiProperty({
    required: false,
    description:
      "Link mode: where the link redirects after verification; kept only when its origin is on the project's allow-list",
  })
  @IsOptional()
  @IsString()
  @MaxCodePoints(2048)
  @IsUrl(URL_RULES)
  readonly redirectUrl?: string;
}

/** The token as issued (printable ASCII, 1-256 characters): passes the decorators below as sent. */
const ISSUED_SHAPE = /^[\x20-\x7e]{1,256}$/;

@AcceptWhen(
  (body) => hasExactlyKeys(body, ['token']) && typeof body['token'] === 'string' && ISSUED_SHAPE.test(body['token']),
)
export class VerifyEmailRequest {
  // Only the type here: an empty or over-long string is a token never issued, 400
  // `auth/invalid-or-expired-token` from the domain; a missing or non-string one is `request/invalid-body`.
  @ApiProperty({ description: 'Exact match, case-sensitive' })
  @IsString()
  readonly token: string;

  @ApiProperty({
    required: false,
    maxLength: 254,
    description:
      'The address the code was sent to. A code other than a 64-character hex one needs it, or the access token of its user',
  })
  @IsOptional()
  @IsString()
  @CodePointLength(1, 254)
  readonly email?: string;
}

export class VerifyEmailLinkQuery {
  @ApiProperty({ required: false })
  @IsOptional()
  @IsString()
  @MaxCodePoints(256)
  readonly token?: string;

  @ApiProperty({ required: false })
  @IsOptional()
  @IsString()
  @MaxCodePoints(2048)
  @IsUrl(URL_RULES)
  readonly redirect?: string;
}
