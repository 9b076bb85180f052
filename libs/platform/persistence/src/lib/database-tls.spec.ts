import { withDatabaseCa } from './database-tls';

describe('withDatabaseCa (DATABASE_TLS_CA_FILE)', () => {
  it('leaves a URL alone without a CA file', () => {
    expect(withDatabaseCa('postgres://u@h/db', undefined)).toBe('postgres://u@h/db');
  });

  it('adds the CA and verify-full when the URL names neither', () => {
    const url = new URL(withDatabaseCa('postgres://u:p@h:5432/db', '/etc/ca.pem'));
    expect(Object.fromEntries(url.searchParams)).toEqual({ sslrootcert: '/etc/ca.pem', sslmode: 'verify-full' });
    expect(url.password).toBe('p');
  });

  it("keeps the URL's own sslmode and sslrootcert", () => {
    const url = new URL(withDatabaseCa('postgres://h/db?sslmode=verify-ca&sslrootcert=/own.pem', '/etc/ca.pem'));
    expect(Object.fromEntries(url.searchParams)).toEqual({ sslmode: 'verify-ca', sslrootcert: '/own.pem' });
  });
});
