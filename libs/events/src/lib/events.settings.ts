import { FileStorage } from './file-storage';
import { EventUserDirectory } from './actor';

/** What the app configures: storage adapter, user lookup and the image limits. */
export abstract class EventsSettings {
  abstract readonly storage: FileStorage;
  abstract readonly users: EventUserDirectory;
  /** Largest source image in pixels (decompression-bomb guard). */
  abstract readonly maxImagePixels: number;
  /** Output pixels one request may ask for, over every rendition of every image (RENDITION_FLOOR_PIXELS each at least). */
  abstract readonly maxRequestPixels: number;
  /** sharp jobs (decodes, renditions) running at once on this instance, over all requests. */
  abstract readonly imageConcurrency: number;
  /** How often to delete files of event creations that died before committing, and how old their journal must be. */
  abstract readonly uploadSweep: { intervalSeconds: number; graceSeconds: number };
}

export const MAX_GALLERY_FILES = 10;
export const MAX_IMAGE_BYTES = 50 * 1024 * 1024;
