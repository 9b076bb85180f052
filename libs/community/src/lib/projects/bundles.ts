import { AppError } from '@acme/platform-errors';

/** Bundles switched per project; `core` is always on and never stored. */
export const BUNDLES = ['push', 'spaces', 'files-images'] as const;
export type Bundle = (typeof BUNDLES)[number];

export const isBundle = (value: unknown): value is Bundle =>
  typeof value === 'string' && (BUNDLES as readonly string[]).includes(value);

/** Deduplicated, in the canonical order; `core` is accepted and dropped. */
export function normalizeBundles(bundles: readonly string[]): Bundle[] {
  return BUNDLES.filter((bundle) => bundles.includes(bundle));
}

export function hasBundle(project: { bundles: readonly string[] }, bundle: Bundle): boolean {
  return project.bundles.includes(bundle);
}

/** Throws the feature's own error (e.g. `database/tables-not-available`) when the bundle is off. */
export function assertBundle(project: { bundles: readonly string[] }, bundle: Bundle, error: () => AppError): void {
  if (!hasBundle(project, bundle)) throw error();
}
