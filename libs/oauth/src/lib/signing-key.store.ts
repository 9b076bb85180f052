import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject } from 'node:crypto';
import { Repository } from 'typeorm';
import { derivePurposeKey, isSealed, openSecret, sealSecret } from '@acme/platform-auth';
import { SigningKey } from './oauth.entities';
import { OAuthSettings } from './oauth.settings';

export interface PublicJwk {
  kty: string;
  n: string;
  e: string;
  kid: string;
  use: 'sig';
  alg: 'RS256';
}

interface LoadedKey {
  kid: string;
  privateKey: KeyObject;
  publicKeyPem: string;
  jwk: PublicJwk;
}

/** RFC 7638 thumbprint: stable across instances and restarts for the same key. */
function thumbprint(jwk: { e: string; kty: string; n: string }): string {
  return createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n })).digest('base64url');
}

function load(pem: string): LoadedKey {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'rsa') throw new Error('The signing key must be an RSA private key');
  const publicKey = createPublicKey(privateKey);
  const raw = publicKey.export({ format: 'jwk' }) as { kty: string; n: string; e: string };
  const kid = thumbprint(raw);
  return {
    kid,
    privateKey,
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    jwk: { kty: raw.kty, n: raw.n, e: raw.e, kid, use: 'sig', alg: 'RS256' },
  };
}

/**
 * The one RS256 key every instance signs with: the configured PEM, else a key generated once and stored
 * sealed (AES-256-GCM under a key derived from the client-secret key, never the PEM in clear). Instances
 * starting together race on the `slot` unique constraint; the loser reads the winner's key.
 */
@Injectable()
export class SigningKeyStore implements OnModuleInit {
  private key?: LoadedKey;

  constructor(
    private readonly settings: OAuthSettings,
    @InjectRepository(SigningKey) private readonly keys: Repository<SigningKey>,
  ) {}

  async onModuleInit(): Promise<void> {
    this.key = load(this.settings.signingKeyPem ?? (await this.storedPem()));
  }

  private get sealingKey(): Buffer {
    return derivePurposeKey(this.settings.clientSecretKey, 'management signing key at rest');
  }

  private async storedPem(): Promise<string> {
    const existing = await this.keys.findOneBy({ slot: 'current' });
    if (existing) return this.unseal(existing);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    await this.keys.query(
      `INSERT INTO "management"."signing_keys" ("kid", "slot", "private_key_pem") VALUES ($1, 'current', $2) ON CONFLICT ("slot") DO NOTHING`,
      [load(pem).kid, sealSecret(pem, this.sealingKey)],
    );
    return this.unseal(await this.keys.findOneByOrFail({ slot: 'current' }));
  }

  /** A row written before keys were sealed holds the PEM in clear: it is sealed in place on first read. */
  private async unseal(row: SigningKey): Promise<string> {
    if (!isSealed(row.privateKeyPem)) {
      await this.keys.query(`UPDATE "management"."signing_keys" SET "private_key_pem" = $2 WHERE "kid" = $1 AND "private_key_pem" = $3`, [
        row.kid,
        sealSecret(row.privateKeyPem, this.sealingKey),
        row.privateKeyPem,
      ]);
      return row.privateKeyPem;
    }
    try {
      return openSecret(row.privateKeyPem, this.sealingKey);
    } catch {
      throw new Error('The stored signing key does not open with MANAGEMENT_CLIENT_SECRET_KEY (was it changed?); restore it or set MANAGEMENT_SIGNING_KEY');
    }
  }

  current(): LoadedKey {
    if (!this.key) throw new Error('Signing key not loaded yet');
    return this.key;
  }

  /** Verification key for a token's `kid`; undefined for any other kid. */
  publicKeyFor(kid: string | undefined): string | undefined {
    const key = this.current();
    return kid === key.kid ? key.publicKeyPem : undefined;
  }

  jwks(): { keys: PublicJwk[] } {
    return { keys: [this.current().jwk] };
  }
}
