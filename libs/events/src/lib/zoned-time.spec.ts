import { zonedLocalToUtc } from './zoned-time';

const utc = (local: string, zone: string) => zonedLocalToUtc(local, zone)?.toISOString();

describe('zonedLocalToUtc', () => {
  it('reads a local time through the IANA zone, with its summer and winter offsets', () => {
    expect(utc('2030-05-01T18:00:00', 'America/New_York')).toBe('2030-05-01T22:00:00.000Z');
    expect(utc('2030-01-15T18:00', 'America/New_York')).toBe('2030-01-15T23:00:00.000Z');
    expect(utc('2030-07-01T09:30:15.250', 'Asia/Kolkata')).toBe('2030-07-01T04:00:15.250Z');
    expect(utc('2030-07-01T00:00:00', 'UTC')).toBe('2030-07-01T00:00:00.000Z');
  });

  it('puts a time inside a spring-forward gap as far after the gap as it was into it', () => {
    // Europe/Berlin jumps 02:00 CET → 03:00 CEST on 2030-03-31.
    expect(utc('2030-03-31T02:30:00', 'Europe/Berlin')).toBe('2030-03-31T01:30:00.000Z');
    expect(utc('2030-03-31T03:00:00', 'Europe/Berlin')).toBe('2030-03-31T01:00:00.000Z');
    expect(utc('2030-03-31T01:59:00', 'Europe/Berlin')).toBe('2030-03-31T00:59:00.000Z');
  });

  it('takes the earlier of the two instants of a fall-back overlap', () => {
    // Europe/Berlin falls back 03:00 CEST → 02:00 CET on 2030-10-27: 02:30 happens twice.
    expect(utc('2030-10-27T02:30:00', 'Europe/Berlin')).toBe('2030-10-27T00:30:00.000Z');
    expect(utc('2030-10-27T03:30:00', 'Europe/Berlin')).toBe('2030-10-27T02:30:00.000Z');
  });

  it('refuses what is not a local date-time', () => {
    for (const value of [
      '2030-02-30T10:00:00',
      '2030-05-01T24:00:00',
      '2030-05-01 18:00',
      '2030-05-01T18:00:00Z',
      'tomorrow',
    ]) {
      expect(zonedLocalToUtc(value, 'Europe/Berlin')).toBeUndefined();
    }
  });
});
