import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IMAGE_FITS, IMAGE_FORMATS, MAX_SIZE, MIN_SIZE } from '@acme/events';

// OpenAPI description of `cover.options` / `gallery.options`: one schema per mode, told apart by `mode`.
// Validation is the events lib's parseImageOptions; these classes only document it.

const size = { type: 'integer', minimum: MIN_SIZE, maximum: MAX_SIZE } as const;
const namedSizes = (what: string) => ({
  type: 'object' as const,
  additionalProperties: size,
  minProperties: 1,
  maxProperties: 20,
  description: `variant name (letters, digits, _ or -; not "original") → ${what} in pixels`,
});
const positive = { type: 'number', minimum: 0, exclusiveMinimum: true } as const;
const ratio = {
  type: 'object' as const,
  additionalProperties: false,
  required: ['width', 'height'],
  properties: { width: positive, height: positive },
};

abstract class CommonImageOptions {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 85 }) readonly quality?: number;
  @ApiPropertyOptional({ enum: IMAGE_FORMATS, default: 'webp' }) readonly format?: string;
  @ApiPropertyOptional({ default: true, description: 'remove EXIF and other metadata' }) readonly stripExif?: boolean;
}

export class ExactDimensionsImageOptions extends CommonImageOptions {
  @ApiProperty({ enum: ['exact-dimensions'] }) readonly mode: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'object',
      additionalProperties: false,
      required: ['width', 'height'],
      properties: { width: size, height: size },
    },
    minProperties: 1,
    maxProperties: 20,
    description: 'variant name → box in pixels',
  })
  readonly dimensions: object;
  @ApiPropertyOptional({ enum: IMAGE_FITS, default: 'cover' }) readonly fit?: string;
}

export class AspectRatioWidthBasedImageOptions extends CommonImageOptions {
  @ApiProperty({ enum: ['aspect-ratio-width-based'] }) readonly mode: string;
  @ApiProperty(ratio) readonly aspectRatio: object;
  @ApiProperty(namedSizes('width')) readonly widths: object;
  @ApiPropertyOptional({ enum: IMAGE_FITS, default: 'cover' }) readonly fit?: string;
}

export class AspectRatioHeightBasedImageOptions extends CommonImageOptions {
  @ApiProperty({ enum: ['aspect-ratio-height-based'] }) readonly mode: string;
  @ApiProperty(ratio) readonly aspectRatio: object;
  @ApiProperty(namedSizes('height')) readonly heights: object;
  @ApiPropertyOptional({ enum: IMAGE_FITS, default: 'cover' }) readonly fit?: string;
}

export class OriginalAspectImageOptions extends CommonImageOptions {
  @ApiProperty({ enum: ['original-aspect'] }) readonly mode: string;
  @ApiProperty(namedSizes('longest side bound')) readonly sizes: object;
  @ApiPropertyOptional({ enum: ['inside', 'outside'], default: 'inside' }) readonly fit?: string;
}

export class MultiAspectRatioImageOptions extends CommonImageOptions {
  @ApiProperty({ enum: ['multi-aspect-ratio'] }) readonly mode: string;
  @ApiProperty({ type: 'array', items: ratio, minItems: 1, maxItems: 10 }) readonly aspectRatios: object[];
  @ApiProperty(namedSizes('width, one rendition per ratio')) readonly sizes: object;
  @ApiPropertyOptional({ enum: IMAGE_FITS, default: 'cover' }) readonly fit?: string;
}

export const IMAGE_OPTION_MODELS = [
  ExactDimensionsImageOptions,
  AspectRatioWidthBasedImageOptions,
  AspectRatioHeightBasedImageOptions,
  OriginalAspectImageOptions,
  MultiAspectRatioImageOptions,
];

/** The `oneOf` schema of an options field, with an example a Swagger UI user can send as it is. */
export const imageOptionsSchema = (field: string, example: object) => ({
  name: field,
  description: `JSON image options for ${field.split('.')[0]}, one of the modes below (a JSON text part on multipart)`,
  oneOf: IMAGE_OPTION_MODELS.map((model) => ({ $ref: getSchemaPath(model) })),
  discriminator: { propertyName: 'mode' },
  example,
});
