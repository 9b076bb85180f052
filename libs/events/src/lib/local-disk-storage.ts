import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { CONTENT_TYPES, FileStorage, STORAGE_KEY, StoredObject } from './file-storage';

/** Files under a root directory, served by the app's files route at `${publicBaseUrl}/files/<key>`. */
export class LocalDiskStorage extends FileStorage {
  private readonly root: string;

  constructor(
    root: string,
    private readonly publicBaseUrl: string,
  ) {
    super();
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    if (!STORAGE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.'))
      throw new Error(`Invalid storage key: ${key}`);
    const full = resolve(join(this.root, key));
    if (!full.startsWith(this.root + sep)) throw new Error(`Invalid storage key: ${key}`);
    return full;
  }

  async put(key: string, sourcePath: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(sourcePath, target);
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.pathOf(key), { force: true })));
  }

  async open(key: string): Promise<StoredObject | null> {
    let path: string;
    try {
      path = this.pathOf(key);
    } catch {
      return null;
    }
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    const extension = key.slice(key.lastIndexOf('.') + 1);
    return {
      stream: createReadStream(path),
      size: info.size,
      contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
    };
  }

  url(key: string): string {
    return `${this.publicBaseUrl}/files/${key}`;
  }
}
