import { FileStorage, LocalDiskStorage, S3Storage } from '@acme/events';
import { CommunityEnv } from '../config/env';

/** Local disk unless STORAGE_DRIVER=s3; URLs are absolute when PUBLIC_URL is set, else relative to the app. */
export function createFileStorage(env: CommunityEnv): FileStorage {
  const appBaseUrl = (env.PUBLIC_URL ?? '').replace(/\/$/, '');
  if (env.STORAGE_DRIVER === 's3') {
    return new S3Storage({
      bucket: env.S3_BUCKET as string,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      keyPrefix: env.S3_KEY_PREFIX,
      publicUrl: env.S3_PUBLIC_URL,
      appBaseUrl,
    });
  }
  return new LocalDiskStorage(env.STORAGE_DIR, appBaseUrl);
}
