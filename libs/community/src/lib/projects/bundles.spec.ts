import { AppError } from '@acme/platform-errors';
import { assertBundle, hasBundle, normalizeBundles } from './bundles';

describe('bundles', () => {
  it('drops core and duplicates and keeps the canonical order', () => {
    expect(normalizeBundles(['files-images', 'core', 'push', 'push'])).toEqual(['push', 'files-images']);
  });

  it('checks a bundle and throws the feature error when off', () => {
    const project = { bundles: ['push'] };
    expect(hasBundle(project, 'push')).toBe(true);
    expect(() => assertBundle(project, 'spaces', () => new AppError('X', 'forbidden', 'off'))).toThrow('off');
  });
});
