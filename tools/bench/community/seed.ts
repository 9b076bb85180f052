/** Seeding for the community benchmark: users with live verification tokens, device users and their JWTs. */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Client } from 'pg';

export const deriveKey = (secret: string, purpose: string) =>
  createHmac('sha256', secret).update(`community:${purpose}`).digest();

/** Users, each with one live verification token: hex, naming its user (the app's default format). */
export async function seedTokens(db: Client, secret: string, projectId: string, count: number): Promise<string[]> {
  const key = deriveKey(secret, 'verification-token');
  const ids = Array.from({ length: count }, () => randomUUID());
  const tokens = ids.map((id) => `${id.replace(/-/g, '')}${randomBytes(16).toString('hex')}`);
  const digests = tokens.map((token) => createHmac('sha256', key).update(`${projectId}:${token}`).digest('hex'));
  for (let start = 0; start < count; start += 20000) {
    const slice = (values: string[]) => values.slice(start, start + 20000);
    await db.query(
      `INSERT INTO community.users (id, project_id, email, password_hash) SELECT id, $1, 'bench-' || id || '@example.com', 'x' FROM unnest($2::uuid[]) AS id`,
      [projectId, slice(ids)],
    );
    await db.query(
      `INSERT INTO community.verification_tokens (project_id, user_id, token_digest, mode, expires_at)
       SELECT $1, u, d, 'code', now() + interval '1 hour' FROM unnest($2::uuid[], $3::text[]) AS t(u, d)`,
      [projectId, slice(ids), slice(digests)],
    );
  }
  await db.query('ANALYZE community.users; ANALYZE community.verification_tokens');
  return tokens;
}

/**
 * Makes every seeded token live again (and its user unverified) before a verify run, so each run of either
 * handler starts from the same state and every request is a real success; VACUUM keeps the dead rows of the
 * previous runs from slowing the later ones.
 */
export async function reviveTokens(db: Client): Promise<void> {
  await db.query(`UPDATE community.verification_tokens SET consumed_at = NULL WHERE consumed_at IS NOT NULL`);
  await db.query(`UPDATE community.users SET is_verified = false WHERE is_verified`);
  await db.query('VACUUM ANALYZE community.verification_tokens');
  await db.query('VACUUM ANALYZE community.users');
}

/** Every run of either handler registers into an empty device table (and stays under the per-user cap). */
export async function clearDevices(db: Client): Promise<void> {
  await db.query('DELETE FROM community.push_devices');
  await db.query('VACUUM ANALYZE community.push_devices');
}

/** `count` users of the project with an access token each (as the app signs them: HS256, aud project, iss community-api). */
export async function seedDeviceUsers(db: Client, secret: string, projectId: string, count: number): Promise<string[]> {
  const users = Array.from({ length: count }, () => randomUUID());
  await db.query(
    `INSERT INTO community.users (id, project_id, email, password_hash) SELECT id, $1, 'dev-' || id || '@example.com', 'x' FROM unnest($2::uuid[]) AS id`,
    [projectId, users],
  );
  const key = deriveKey(secret, 'access-token');
  return users.map((sub) =>
    jwt.sign({}, key, {
      algorithm: 'HS256',
      audience: projectId,
      issuer: 'community-api',
      subject: sub,
      expiresIn: 3600,
    }),
  );
}
