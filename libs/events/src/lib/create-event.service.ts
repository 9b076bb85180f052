import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { withTransaction } from '@acme/platform-persistence';
import { BUNDLE_FILES_IMAGES, BUNDLE_SPACES, EventActor } from './actor';
import { CreateEventInput } from './event-input';
import { EventView, toEventView } from './event-view';
import { EventErrors } from './events.errors';
import { EventsSettings, MAX_GALLERY_FILES } from './events.settings';
import { CONTENT_TYPES } from './file-storage';
import { ImageOptions, parseImageOptions } from './image-options';
import { planImage, probeImage, ProcessedImage, ProcessedRendition, renderImage } from './image-processor';
import { RenditionPool } from './rendition-pool';
import { parseJsonField } from './field-checks';
import { EventFileRepository } from './repositories/event-file.repository';
import { EventRepository } from './repositories/event.repository';
import { SpaceService } from './space.service';
import { UploadJournal } from './upload-journal';

/** A file part already streamed to a temporary file by the app (nothing of it is kept in memory). */
export interface StagedUpload {
  field: string;
  filename: string;
  /** Null when the part was over the size limit and was discarded while streaming. */
  path: string | null;
  size: number;
  tooLarge: boolean;
}

/** POST .../events after the app validated the event fields (JSON or multipart, normalised alike). */
export interface CreateEventCommand {
  input: CreateEventInput;
  /** `cover.options` and `gallery.options` as sent: JSON text on multipart, a JSON value in a JSON body. */
  imageOptions: { cover?: unknown; gallery?: unknown };
  uploads: StagedUpload[];
  /** Scratch directory for processed renditions; the caller removes it afterwards. */
  workDir: string | null;
}

interface PlannedImage {
  role: 'cover' | 'gallery';
  position: number;
  upload: StagedUpload;
  options: ImageOptions;
}

export const OPTION_FIELDS = { cover: 'cover.options', gallery: 'gallery.options' } as const;

/** POST .../events: the spec's checks in its order (body, bundles, space, files), then all-or-nothing storage. */
@Injectable()
export class CreateEventService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: EventRepository,
    private readonly files: EventFileRepository,
    private readonly settings: EventsSettings,
    private readonly spaces: SpaceService,
    private readonly journal: UploadJournal,
    private readonly pool: RenditionPool,
  ) {}

  async create(actor: EventActor, command: CreateEventCommand): Promise<EventView> {
    const { input } = command;
    const images = this.planImages(command);
    const creator = await this.resolveCreator(actor, input);
    this.checkBundles(actor, input, images);
    await this.checkSpace(actor, input, creator);
    const processed = await this.processImages(images, command.workDir);
    return this.persist(actor, input, creator, images, processed);
  }

  /** The spec's checks of the file parts and their options, after the event fields. */
  private planImages(command: CreateEventCommand): PlannedImage[] {
    const unknownPart = command.uploads.find((upload) => upload.field !== 'cover' && upload.field !== 'gallery');
    if (unknownPart)
      throw EventErrors.invalidInput(
        `Unexpected file field ${unknownPart.field}; images go in cover or gallery`,
        unknownPart.field,
      );
    const covers = command.uploads.filter((upload) => upload.field === 'cover');
    const gallery = command.uploads.filter((upload) => upload.field === 'gallery');
    if (covers.length > 1) throw EventErrors.invalidInput('Only one cover image is allowed', 'cover');
    if (gallery.length > MAX_GALLERY_FILES)
      throw EventErrors.invalidInput(`At most ${MAX_GALLERY_FILES} gallery images are allowed`, 'gallery');
    const cover = this.options('cover', covers.length > 0, command.imageOptions.cover);
    const galleryParsed = this.options('gallery', gallery.length > 0, command.imageOptions.gallery);
    return [
      ...covers.map((upload) => ({ role: 'cover' as const, position: 0, upload, options: cover as ImageOptions })),
      ...gallery.map((upload, position) => ({
        role: 'gallery' as const,
        position,
        upload,
        options: galleryParsed as ImageOptions,
      })),
    ];
  }

  private options(role: 'cover' | 'gallery', hasFiles: boolean, raw: unknown): ImageOptions | null {
    const field = OPTION_FIELDS[role];
    if (!hasFiles) {
      if (raw !== undefined) throw EventErrors.invalidInput(`${field} was sent without ${role}`, field);
      return null;
    }
    if (raw === undefined) throw EventErrors.invalidInput(`${field} is required with ${role}`, field);
    return parseImageOptions(typeof raw === 'string' ? parseJsonField(raw, field) : raw, field);
  }

  private async resolveCreator(actor: EventActor, input: CreateEventInput): Promise<string> {
    if (actor.kind === 'user') {
      if (input.userId !== null && input.userId !== actor.userId)
        throw EventErrors.invalidInput('userId is only accepted with a service or master key', 'userId');
      return actor.userId as string;
    }
    if (input.userId === null)
      throw EventErrors.invalidInput('userId is required when a service or master key creates an event', 'userId');
    if (!(await this.settings.users.userExists(actor.projectId, input.userId)))
      throw EventErrors.invalidInput('userId does not name a user of this project', 'userId');
    return input.userId;
  }

  private checkBundles(actor: EventActor, input: CreateEventInput, images: PlannedImage[]): void {
    if (images.length > 0 && !actor.bundles.includes(BUNDLE_FILES_IMAGES)) {
      throw EventErrors.filesImagesBundleRequired();
    }
    if (input.spaceId !== null && !actor.bundles.includes(BUNDLE_SPACES)) {
      throw EventErrors.spacesBundleRequired();
    }
  }

  private async checkSpace(actor: EventActor, input: CreateEventInput, creator: string): Promise<void> {
    if (input.spaceId === null) return;
    const space = await this.spaces.findInProject(actor.projectId, input.spaceId);
    if (!space) throw EventErrors.spaceNotFound();
    if (!(await this.spaces.isActiveMember(actor.projectId, space.id, creator))) {
      throw EventErrors.creatorNotSpaceMember();
    }
  }

  private async processImages(images: PlannedImage[], workDir: string | null): Promise<ProcessedImage[]> {
    const oversized = images.find((image) => image.upload.tooLarge);
    if (oversized) {
      throw EventErrors.fileTooLarge(oversized.upload.filename);
    }
    if (images.length === 0) return [];
    if (!workDir) throw new Error('A work directory is required to process images');
    const limits = { maxPixels: this.settings.maxImagePixels, pool: this.pool };
    // Headers first (no pixel decoded): every file is an image within bounds, and the whole request's output fits
    // the pixel budget, before any rendition starts.
    const probed = await Promise.all(
      images.map(async (image) => {
        const { upload } = image;
        const probe = await probeImage(
          { path: upload.path as string, filename: upload.filename, size: upload.size },
          limits,
        );
        return { image, probe };
      }),
    );
    const pixels = probed.reduce((sum, { image, probe }) => sum + planImage(probe, image.options).pixels, 0);
    if (pixels > this.settings.maxRequestPixels) {
      const field = images.some((image) => image.role === 'gallery') ? OPTION_FIELDS.gallery : OPTION_FIELDS.cover;
      throw EventErrors.invalidInput(
        `The requested renditions come to ${pixels} pixels; at most ${this.settings.maxRequestPixels} per request`,
        field,
      );
    }
    const results = await Promise.allSettled(
      probed.map(async ({ image, probe }, index) => {
        const outDir = join(workDir, `out-${index}`);
        await mkdir(outDir, { recursive: true });
        return renderImage(probe, image.options, outDir, limits);
      }),
    );
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
    return results.map((result) => (result as PromiseFulfilledResult<ProcessedImage>).value);
  }

  private async persist(
    actor: EventActor,
    input: CreateEventInput,
    creator: string,
    images: PlannedImage[],
    processed: ProcessedImage[],
  ): Promise<EventView> {
    const { storage } = this.settings;
    const eventId = randomUUID();
    const keyOf = (fileId: string, name: string, rendition: ProcessedRendition) =>
      `${encodeURIComponent(actor.projectId)}/events/${eventId}/${fileId}/${name}.${rendition.format === 'jpeg' ? 'jpg' : rendition.format}`;
    const files = images.map((image, index) => {
      const result = processed[index] as ProcessedImage;
      const id = randomUUID();
      const renditions = [['original', result.original] as const, ...Object.entries(result.variants)].map(
        ([name, rendition]) => ({
          name,
          rendition,
          key: keyOf(id, name, rendition),
        }),
      );
      const stored = (rendition: ProcessedRendition, key: string) => ({
        key,
        width: rendition.width,
        height: rendition.height,
        size: rendition.size,
        format: rendition.format,
      });
      const [original, ...variants] = renditions.map(({ rendition, key }) => stored(rendition, key));
      return {
        renditions,
        row: {
          id,
          projectId: actor.projectId,
          eventId,
          role: image.role,
          position: image.position,
          originalName: image.upload.filename,
          original: original as ReturnType<typeof stored>,
          variants: Object.fromEntries(
            renditions.slice(1).map(({ name }, i) => [name, variants[i] as ReturnType<typeof stored>]),
          ),
          metadata: result.metadata,
        },
      };
    });
    const uploads = files.flatMap((file) => file.renditions);
    // Journaled before the first put: a process dying before the commit leaves a row the sweeper acts on.
    if (uploads.length > 0)
      await this.journal.record(
        actor.projectId,
        eventId,
        uploads.map(({ key }) => key),
      );
    try {
      // Settle every put before deciding, so an undo never races a write still in flight.
      const puts = await Promise.allSettled(
        uploads.map(({ key, rendition }) =>
          storage.put(key, rendition.path, CONTENT_TYPES[rendition.format] ?? 'application/octet-stream'),
        ),
      );
      const failedPut = puts.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failedPut) throw failedPut.reason;
      const row = {
        id: eventId,
        projectId: actor.projectId,
        userId: creator,
        title: input.title,
        description: input.description,
        startTime: input.startTime,
        endTime: input.endTime,
        timezone: input.timezone,
        type: input.type,
        url: input.url,
        venueName: input.venueName,
        address: input.address,
        location: input.location
          ? {
              type: 'Point' as const,
              coordinates: [input.location.longitude, input.location.latitude] as [number, number],
            }
          : null,
        spaceId: input.spaceId,
        visibility: input.visibility,
        allowMaybe: input.allowMaybe,
        guestListVisible: input.guestListVisible,
        capacity: input.capacity,
        hostIds: [...new Set([creator, ...input.hostIds])],
        metadata: input.metadata,
      };
      const urlFor = (key: string) => storage.url(key);
      // Without images the event is one INSERT ... RETURNING: atomic on its own, no transaction round trips.
      if (files.length === 0) return toEventView(await this.events.insert(this.dataSource, row), [], urlFor);
      return await withTransaction(this.dataSource, async (manager) => {
        const saved = await this.events.insert(manager, row);
        const savedFiles = await this.files.insertMany(
          manager,
          files.map((file) => file.row),
        );
        if (uploads.length > 0) await this.journal.settle(manager, actor.projectId, eventId);
        return toEventView(saved, savedFiles, urlFor);
      });
    } catch (error) {
      await storage.delete(uploads.map(({ key }) => key)).catch(() => undefined);
      if (uploads.length > 0) await this.journal.forget(actor.projectId, eventId).catch(() => undefined);
      throw error;
    }
  }
}
