import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createHash, createPrivateKey, createPublicKey, KeyObject, webcrypto } from 'node:crypto';

export interface PublicJwk {
  kty: string;
  n: string;
  e: string;
  kid: string;
  use: 'sig';
  alg: 'RS256';
  x5c?: string[];
}

export interface KeyMaterial {
  kid: string;
  privateKey: KeyObject;
  publicKeyPem: string;
  jwk: PublicJwk;
}

/** RFC 7638 thumbprint: stable across instances and restarts for the same key. */
function thumbprint(jwk: { e: string; kty: string; n: string }): string {
  return createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
    .digest('base64url');
}

export function keyMaterial(pem: string): KeyMaterial {
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

export interface KeyCertificate {
  /** PEM of a self-signed X.509 certificate of the key (what Auth0 hands out as `cert`). */
  pem: string;
  /** Base64 DER, for JWKS `x5c`. */
  der: string;
  /** SHA-1 of the DER: `thumbprint` lower-case hex, `fingerprint` colon-separated upper case (Auth0's forms). */
  thumbprint: string;
  fingerprint: string;
}

const ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/**
 * The key's certificate, the same on every instance: serial number and validity derive from the key and its
 * creation time, and RSASSA-PKCS1-v1_5 signatures are deterministic.
 */
export async function keyCertificate(material: KeyMaterial, subject: string, createdAt: Date): Promise<KeyCertificate> {
  const privateKey = await webcrypto.subtle.importKey(
    'pkcs8',
    material.privateKey.export({ format: 'der', type: 'pkcs8' }),
    ALGORITHM,
    false,
    ['sign'],
  );
  const publicKey = await webcrypto.subtle.importKey(
    'spki',
    createPublicKey(material.privateKey).export({ format: 'der', type: 'spki' }),
    ALGORITHM,
    true,
    ['verify'],
  );
  const notBefore = new Date(Math.floor(createdAt.getTime() / 1000) * 1000);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: `01${Buffer.from(material.kid, 'base64url').subarray(0, 15).toString('hex')}`,
    name: `CN=${subject}`,
    notBefore,
    notAfter: new Date(notBefore.getTime() + 10 * 365 * 86_400_000),
    signingAlgorithm: ALGORITHM,
    keys: { privateKey, publicKey },
  });
  const sha1 = Buffer.from(await certificate.getThumbprint('SHA-1')).toString('hex');
  return {
    pem: certificate.toString('pem'),
    der: Buffer.from(certificate.rawData).toString('base64'),
    thumbprint: sha1,
    fingerprint: sha1.toUpperCase().match(/.{2}/g)!.join(':'),
  };
}
