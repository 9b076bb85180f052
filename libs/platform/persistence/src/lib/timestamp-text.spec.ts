import fc from 'fast-check';
import { isoFromUtcTimestamp } from './timestamp-text';

/** What PostgreSQL prints for a UTC `timestamp(3)`: the fraction without trailing zeros, none when whole. */
function postgresText(date: Date): string {
  const iso = date.toISOString();
  const fraction = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}`;
}

describe('isoFromUtcTimestamp', () => {
  it('gives what Date#toISOString gives for the same instant', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1970-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
        (date) => {
          expect(isoFromUtcTimestamp(postgresText(date))).toBe(date.toISOString());
        },
      ),
    );
  });

  it('refuses text it does not recognise (another DateStyle) rather than guess', () => {
    expect(() => isoFromUtcTimestamp('Wed Nov 25 18:28:23.772 2026')).toThrow(/Unexpected timestamp text/);
    expect(() => isoFromUtcTimestamp('2026-11-25 18:28:23.772+00')).toThrow(/Unexpected timestamp text/);
  });
});
