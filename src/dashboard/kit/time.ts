/**
 * The one way the dashboard writes a moment: in the user's time zone (the
 * browser's, as the profit days use), 24-hour, to the minute. The task log,
 * the cycles table, the candlesticks and the profit curves (their axis ticks
 * and crosshair) all go through here, so they never disagree on the zone or
 * mix "12:02" with "12:03:19".
 */
import type { Time } from 'lightweight-charts';
import { browserTimeZone } from '../../dataProvider/timeZone';

export type Moment = string | number | Date;

const formats = new Map<string, Intl.DateTimeFormat>();
const formatOf = (locale: string, timeZone: string, part: 'dateTime' | 'clock' | 'day' | 'month' | 'year') => {
  const key = `${locale}|${timeZone}|${part}`;
  let format = formats.get(key);
  if (!format) {
    const clock = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
    const options: Intl.DateTimeFormatOptions =
      part === 'dateTime'
        ? { month: '2-digit', day: '2-digit', ...clock }
        : part === 'clock'
          ? clock
          : part === 'day'
            ? { month: '2-digit', day: '2-digit' }
            : part === 'month'
              ? { month: 'short' }
              : { year: 'numeric' };
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formats.set(key, format);
  }
  return format;
};

/** "03/01 16:05": the date and the time to the minute; '—' for none. */
export const formatDateTime = (value: Moment | null | undefined, locale: string, timeZone = browserTimeZone()) =>
  value === null || value === undefined || value === '' ? '—' : formatOf(locale, timeZone, 'dateTime').format(new Date(value));

/** "16:05": the time of day to the minute. */
export const formatClock = (value: Moment, locale: string, timeZone = browserTimeZone()) => formatOf(locale, timeZone, 'clock').format(new Date(value));

/** A chart's time (UTC seconds) as a moment. */
const momentOf = (time: Time) => (time as number) * 1000;

// lightweight-charts' TickMarkType (the enum itself would load the library with this module).
const YEAR = 0;
const MONTH = 1;
const DAY_OF_MONTH = 2;

/** A chart's axis tick: the year, the month, the day, or the time to the minute (never seconds), in the user's zone. */
export const chartTickLabel =
  (locale: string, timeZone = browserTimeZone()) =>
  (time: Time, type: number) => {
    const at = momentOf(time);
    if (type === YEAR) return formatOf(locale, timeZone, 'year').format(at);
    if (type === MONTH) return formatOf(locale, timeZone, 'month').format(at);
    if (type === DAY_OF_MONTH) return formatOf(locale, timeZone, 'day').format(at);
    return formatClock(at, locale, timeZone);
  };

/** A chart's crosshair label: the date and time to the minute, as everywhere else. */
export const chartTimeLabel =
  (locale: string, timeZone = browserTimeZone()) =>
  (time: Time) =>
    formatDateTime(momentOf(time), locale, timeZone);
