import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { EventError, EventErrorCode, EventsSettings, STORAGE_KEY } from '@acme/events';

/**
 * Serves stored images (local disk, or S3 without a public URL). Public like a CDN: keys hold random UUIDs and
 * image URLs must work in <img> tags without credentials.
 */
@ApiExcludeController()
@Controller('files')
export class FilesController {
  constructor(private readonly settings: EventsSettings) {}

  @Get('*key')
  async read(@Req() request: Request, @Res() response: Response): Promise<void> {
    const key = decodeURIComponent(request.path.replace(/^\/files\//, ''));
    const object = STORAGE_KEY.test(key) ? await this.settings.storage.open(key) : null;
    if (!object) throw new EventError(EventErrorCode.FILE_NOT_FOUND, 'No such file.');
    response.setHeader('content-type', object.contentType ?? 'application/octet-stream');
    if (object.size !== undefined) response.setHeader('content-length', String(object.size));
    response.setHeader('cache-control', 'public, max-age=31536000, immutable');
    response.setHeader('x-content-type-options', 'nosniff');
    object.stream.pipe(response);
  }
}
