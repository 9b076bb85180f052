import { isIP } from 'node:net';
import { ValidateBy, ValidationOptions } from 'class-validator';

export interface CidrBlock {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/**
 * `10.0.0.0/8, 2001:db8::/32, 192.0.2.7` → blocks (a bare address is a block of one). Throws on anything else,
 * naming the entry (a network address is not a secret).
 */
export function parseCidrList(text: string | undefined): CidrBlock[] {
  if (text === undefined || text.trim() === '') return [];
  return text.split(',').map((entry) => {
    const [address, prefixText, extra] = entry.trim().split('/');
    const version = isIP(address ?? '');
    const family = version === 6 ? 'ipv6' : 'ipv4';
    const max = version === 6 ? 128 : 32;
    const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
    if (version === 0 || extra !== undefined || !(prefix >= 0 && prefix <= max))
      throw new Error(`"${entry.trim()}" is not an IP address or CIDR block`);
    return { address: address as string, prefix, family };
  });
}

/** A comma-separated list of IP addresses and CIDR blocks (TRUSTED_PROXIES). */
export function IsCidrList(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCidrList',
      validator: {
        validate: (value: unknown) => {
          try {
            return typeof value === 'string' && parseCidrList(value) !== undefined;
          } catch {
            return false;
          }
        },
        defaultMessage: (args) => {
          try {
            parseCidrList(String(args?.value));
            return `${args?.property} must be IP addresses or CIDR blocks separated by commas`;
          } catch (error) {
            return `${args?.property} must be IP addresses or CIDR blocks separated by commas: ${(error as Error).message}`;
          }
        },
      },
    },
    options,
  );
}
