import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { isStorableText } from '@acme/platform-errors';
import { EventErrors, MAX_IMAGE_BYTES, METADATA_MAX_BYTES, StagedUpload } from '@acme/events';

export interface StagedMultipart {
  fields: Record<string, string>;
  uploads: StagedUpload[];
  workDir: string;
  /** A structural problem (duplicate field, too many parts, oversized field), reported at the body check. */
  malformed?: string;
}

export const isMultipart = (request: { headers: IncomingMessage['headers'] }): boolean =>
  /^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '');

const LIMITS = {
  // busboy signals 'limit' once a file *reaches* fileSize; one byte more lets a file of exactly 50 MB through.
  fileSize: MAX_IMAGE_BYTES + 1,
  fieldSize: METADATA_MAX_BYTES + 64 * 1024,
  fields: 40,
  files: 12,
  parts: 60,
  fieldNameSize: 100,
};

/**
 * Streams a multipart body: text fields into memory (bounded), each file straight to a temporary file. A file
 * over 50 MB is cut off by busboy, its partial copy deleted, and the rest of the part discarded, so memory
 * stays flat whatever the upload size. The caller removes `workDir` when the request is done.
 */
/** `request` is the Node request (`rawRequest` of whatever the engine hands the handler). */
export async function stageMultipart(request: IncomingMessage, tmpRoot: string): Promise<StagedMultipart> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: request.headers, limits: LIMITS });
  } catch {
    throw EventErrors.invalidInput('Malformed multipart body: missing boundary');
  }
  const workDir = await mkdtemp(join(tmpRoot, 'event-upload-'));
  const staged: StagedMultipart = { fields: {}, uploads: [], workDir };
  const writes: Promise<void>[] = [];
  const streams: NodeJS.ReadableStream[] = [];
  const flag = (problem: string) => {
    staged.malformed ??= problem;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      parser.on('field', (name, value, info) => {
        if (info.nameTruncated) return flag('A field name is too long');
        if (info.valueTruncated)
          return flag(name === 'metadata' ? 'metadata must be at most 1 MB' : `${name} is too large`);
        if (Object.hasOwn(staged.fields, name)) return flag(`${name} was sent more than once`);
        // The platform's rule for text PostgreSQL cannot hold (docs/decisions.md#text-postgresql-cannot-hold).
        if (!isStorableText(name) || !isStorableText(value))
          return flag(
            `${isStorableText(name) ? name : 'A field name'} must not contain NUL or unpaired surrogate characters`,
          );
        staged.fields[name] = value;
      });
      parser.on('file', (name, stream, info) => {
        if (!isStorableText(name) || !isStorableText(info.filename ?? ''))
          flag('A file part name must not contain NUL or unpaired surrogate characters');
        const upload: StagedUpload = {
          field: name,
          filename: info.filename || 'unnamed',
          path: join(workDir, `in-${staged.uploads.length}`),
          size: 0,
          tooLarge: false,
        };
        staged.uploads.push(upload);
        streams.push(stream);
        stream.on('data', (chunk: Buffer) => {
          upload.size += chunk.length;
        });
        stream.on('limit', () => {
          upload.tooLarge = true;
        });
        writes.push(
          pipeline(stream, createWriteStream(upload.path as string)).then(async () => {
            if (upload.tooLarge) {
              await unlink(upload.path as string).catch(() => undefined);
              upload.path = null;
            }
          }),
        );
      });
      parser.on('filesLimit', () => flag('Too many files'));
      parser.on('fieldsLimit', () => flag('Too many fields'));
      parser.on('partsLimit', () => flag('Too many parts'));
      parser.on('error', () => reject(EventErrors.invalidInput('Malformed multipart body')));
      parser.on('close', () => resolve());
      request.on('aborted', () => reject(EventErrors.invalidInput('The upload was aborted')));
      request.pipe(parser);
    });
    await Promise.all(writes);
    return staged;
  } catch (error) {
    request.unpipe(parser);
    request.resume();
    for (const stream of streams) (stream as unknown as { destroy(): void }).destroy();
    await Promise.allSettled(writes);
    await rm(workDir, { recursive: true, force: true });
    throw error;
  }
}
