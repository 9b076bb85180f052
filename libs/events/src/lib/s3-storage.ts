import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { FileStorage, StoredObject } from './file-storage';

type S3Sdk = typeof import('@aws-sdk/client-s3');
/** The SDK (~20 MB resident) loads only when S3 storage is configured, not in every process. */
const loadSdk = (): S3Sdk => require('@aws-sdk/client-s3');

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Prefix every key (one bucket shared by deployments). */
  keyPrefix?: string;
  /** Public base URL of the bucket (CDN); without it objects are served through the app's files route. */
  publicUrl?: string;
  /** The app's own base URL, used when `publicUrl` is not set. */
  appBaseUrl: string;
}

/** Any S3-compatible store (AWS S3, MinIO, R2, ...) through @aws-sdk/client-s3. */
export class S3Storage extends FileStorage {
  private readonly client: S3Client;
  private readonly sdk = loadSdk();

  constructor(private readonly options: S3StorageOptions) {
    super();
    const credentials =
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined;
    this.client = new this.sdk.S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials,
    });
  }

  private objectKey(key: string): string {
    return `${this.options.keyPrefix ?? ''}${key}`;
  }

  async put(key: string, sourcePath: string, contentType: string): Promise<void> {
    const { size } = await stat(sourcePath);
    await this.client.send(
      new this.sdk.PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.objectKey(key),
        Body: createReadStream(sourcePath),
        ContentLength: size,
        ContentType: contentType,
      }),
    );
  }

  async delete(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000);
      await this.client.send(
        new this.sdk.DeleteObjectsCommand({
          Bucket: this.options.bucket,
          Delete: { Objects: chunk.map((key) => ({ Key: this.objectKey(key) })), Quiet: true },
        }),
      );
    }
  }

  async open(key: string): Promise<StoredObject | null> {
    try {
      const object = await this.client.send(
        new this.sdk.GetObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }),
      );
      if (!object.Body) return null;
      return { stream: object.Body as Readable, size: object.ContentLength, contentType: object.ContentType };
    } catch (error) {
      if (error instanceof this.sdk.NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  url(key: string): string {
    return this.options.publicUrl
      ? `${this.options.publicUrl.replace(/\/$/, '')}/${this.objectKey(key)}`
      : `${this.options.appBaseUrl}/files/${key}`;
  }

  destroy(): void {
    this.client.destroy();
  }
}
