import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString } from 'class-validator';
import { CodePointLength, MaxCodePoints } from '@acme/platform-errors';
import { BUNDLES, MAX_REDIRECT_ORIGINS } from '@acme/community';

const BUNDLE_NAMES = ['core', ...BUNDLES];

export const REDIRECT_ORIGINS_DOC = {
  type: String,
  isArray: true,
  required: false,
  maxItems: MAX_REDIRECT_ORIGINS,
  example: ['https://app.example.com'],
  description:
    'http(s) origins (scheme, host, port; no path) that verification links may redirect to; empty (the default): links answer JSON',
};

/** Settings the operator sets at creation or changes later; the origins' shape is checked by the domain. */
class ProjectSettingsRequest {
  @ApiProperty({ enum: BUNDLE_NAMES, isArray: true, required: false, description: '`core` is always on' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsIn(BUNDLE_NAMES, { each: true })
  readonly bundles?: string[];

  @ApiProperty(REDIRECT_ORIGINS_DOC)
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_REDIRECT_ORIGINS)
  @IsString({ each: true })
  @MaxCodePoints(300, { each: true })
  readonly redirectOrigins?: string[];
}

export class CreateProjectRequest extends ProjectSettingsRequest {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @CodePointLength(1, 200)
  readonly name: string;
}

/** A partial change: the fields given replace the stored ones, the others stay. */
export class UpdateProjectRequest extends ProjectSettingsRequest {}
