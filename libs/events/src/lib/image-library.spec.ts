import type { Sharp } from 'sharp';

// Stands in for sharp: the factory runs when (and only when) something requires the module.
const sharpLoaded = jest.fn();
jest.mock('sharp', () => {
  sharpLoaded();
  return Object.assign(jest.fn(), { cache: jest.fn(), concurrency: jest.fn() });
});

describe('sharp loads on the first image, not at start', () => {
  it('importing the image pipeline leaves sharp unloaded; the first use loads and configures it once', async () => {
    const { processImage } = await import('./image-processor');
    const { encode, imageLibrary } = await import('./image-encoding');
    expect(typeof processImage).toBe('function');
    expect(typeof encode).toBe('function');
    expect(sharpLoaded).not.toHaveBeenCalled();

    const library = imageLibrary();
    expect(sharpLoaded).toHaveBeenCalledTimes(1);
    expect(library.cache).toHaveBeenCalledWith(false);
    expect(library.concurrency).toHaveBeenCalledWith(1);
    expect(imageLibrary()).toBe(library);
    expect(library.cache).toHaveBeenCalledTimes(1);
  });

  it('encode needs no library of its own: it works on the pipeline it is given', async () => {
    const { encode } = await import('./image-encoding');
    const webp = jest.fn().mockReturnValue('encoded');
    expect(encode({ webp } as unknown as Sharp, 'webp', 80)).toBe('encoded');
    expect(webp).toHaveBeenCalledWith({ quality: 80, effort: 2 });
  });
});
