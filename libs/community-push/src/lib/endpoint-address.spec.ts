import { isPublicAddress, privateEndpointReason, publicOnlyLookup } from './endpoint-address';

describe('push endpoint addresses', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.8',
    '172.16.5.4',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd12::1',
    'ff02::1',
    '::ffff:127.0.0.1',
  ])('%s is not public', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['8.8.8.8', '142.250.74.110', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8'])('%s is public', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );

  it('refuses local names and private literals in a URL, not public names', () => {
    expect(privateEndpointReason(new URL('https://fcm.googleapis.com/fcm/send/x'))).toBeUndefined();
    expect(privateEndpointReason(new URL('https://localhost/x'))).toBeDefined();
    expect(privateEndpointReason(new URL('https://intranet/x'))).toBeDefined();
    expect(privateEndpointReason(new URL('https://[fe80::1]/x'))).toBeDefined();
  });

  it('refuses to connect to a name that resolves to a private address (checked at connect time)', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      publicOnlyLookup('localhost', {}, (e) => resolve(e)),
    );
    expect(error?.code).toBe('EPRIVATEADDRESS');
  });
});
