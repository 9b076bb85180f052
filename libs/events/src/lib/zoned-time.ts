const LOCAL_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;

/** One formatter per zone name; capped because case variants of a name are valid too (a client could mint many). */
const formatters = new Map<string, Intl.DateTimeFormat>();
const FORMATTERS_KEPT = 1000;

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size < FORMATTERS_KEPT) formatters.set(zone, format);
  }
  return format;
}

/** The zone's wall clock at `instant`, read as if it were UTC, in ms (whole seconds). */
function wallClock(instant: number, zone: string): number {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, Number(part.value)]),
  );
  return Date.UTC(parts['year'], parts['month'] - 1, parts['day'], parts['hour'], parts['minute'], parts['second']);
}

const DAY = 86_400_000;

const offsetAt = (instant: number, zone: string) => wallClock(instant, zone) - Math.floor(instant / 1000) * 1000;

/**
 * `2030-05-01T18:00:00` in `zone` → the UTC instant (docs/community-api.md#events). Ambiguous and missing local
 * times are decided as RFC 5545 and Temporal's `compatible` do: in a fall-back overlap the earlier instant
 * (the first time the clock shows it); in a spring-forward gap the wall time is read with the offset before
 * the gap, so it lands as far after the gap as it was into it (02:30 in a 02:00–03:00 gap is 03:30).
 * Undefined when `local` is not a local date-time.
 */
export function zonedLocalToUtc(local: string, zone: string): Date | undefined {
  const match = LOCAL_DATETIME.exec(local);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second = '0', fraction = '0'] = match.slice(1);
  const wall = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  const check = new Date(wall);
  if (check.getUTCMonth() !== Number(month) - 1 || check.getUTCDate() !== Number(day) || Number(hour) > 23)
    return undefined;
  const millis = Math.floor(Number(`0.${fraction}`) * 1000);
  // Offsets a day either side: a zone changes its offset at most once in between (DST or a rule change).
  const before = offsetAt(wall - DAY, zone);
  const after = offsetAt(wall + DAY, zone);
  const candidates = [...new Set([wall - before, wall - after])]
    .filter((instant) => wallClock(instant, zone) === wall)
    .sort((a, b) => a - b);
  const instant = candidates[0] ?? wall - before;
  return new Date(instant + millis);
}

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/i;

/** True when the fields name a real day (no February 30th: Date would roll it into March). */
function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * An ISO 8601 date-time with an offset (`Z` or ±hh:mm), or with `dateOnly` a bare date too, read strictly: every
 * field within its calendar range, as the local form (zonedLocalToUtc) is read. `new Date()` alone accepts
 * 2030-02-30 as 2030-03-02 (issue 25). Undefined when not such a value.
 */
export function parseIsoDateTime(value: string, options: { dateOnly?: boolean } = {}): Date | undefined {
  const match = ISO_DATE_TIME.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = match.slice(1);
  if (hour === undefined && !options.dateOnly) return undefined;
  if (!isCalendarDate(Number(year), Number(month), Number(day))) return undefined;
  if (Number(hour ?? 0) > 23 || Number(minute ?? 0) > 59 || Number(second) > 59) return undefined;
  if (Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
