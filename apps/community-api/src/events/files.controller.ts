import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { rawRequest, rawResponse } from '@acme/platform-http';
import { EventErrors, EventsSettings, STORAGE_KEY } from '@acme/events';

/**
 * Serves stored images (local disk, or S3 without a public URL). Public like a CDN: keys hold random UUIDs and
 * image URLs must work in <img> tags without credentials.
 */
@ApiExcludeController()
@Controller('files')
export class FilesController {
  constructor(private readonly settings: EventsSettings) {}

  // Fastify's wildcard (no name: the handler reads the path itself).
  @Get('*')
  async read(@Req() request: object, @Res() response: object): Promise<void> {
    // The Node request and response under whatever the engine hands the handler: the body is streamed to the socket.
    const path = rawRequest(request as IncomingMessage | { raw: IncomingMessage }).url?.split('?')[0] ?? '';
    const raw = rawResponse(response as ServerResponse | { raw: ServerResponse });
    const key = decodeURIComponent(path.replace(/^\/files\//, ''));
    const object = STORAGE_KEY.test(key) ? await this.settings.storage.open(key) : null;
    if (!object) throw EventErrors.fileNotFound();
    raw.setHeader('content-type', object.contentType ?? 'application/octet-stream');
    if (object.size !== undefined) raw.setHeader('content-length', String(object.size));
    raw.setHeader('cache-control', 'public, max-age=31536000, immutable');
    raw.setHeader('x-content-type-options', 'nosniff');
    object.stream.pipe(raw);
  }
}
