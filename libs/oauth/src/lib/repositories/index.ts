export * from './client.repository';
export * from './client-grant.repository';
export * from './client-credential.repository';
export * from './signing-key.repository';
