/**
 * A PostgreSQL URL verified against a CA bundle (DATABASE_TLS_CA_FILE): node-postgres reads `sslrootcert` itself and
 * honours `sslmode`; a URL naming no `sslmode` gets verify-full (certificate chain and host name). A URL that already
 * names its own `sslrootcert` keeps it (docs/deploying.md#managed-postgresql).
 */
export function withDatabaseCa(url: string, caFile: string | undefined): string {
  if (!caFile) return url;
  const parsed = new URL(url);
  if (!parsed.searchParams.has('sslrootcert')) parsed.searchParams.set('sslrootcert', caFile);
  if (!parsed.searchParams.has('sslmode')) parsed.searchParams.set('sslmode', 'verify-full');
  return parsed.toString();
}
