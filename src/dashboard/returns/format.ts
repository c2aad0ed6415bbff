/**
 * Every number and time the returns pages and the poster show goes through
 * here, on the shared number format (src/api/format.ts). Display only: the
 * values stay decimal strings.
 */
import { formatPercent } from '../../api/format';
import { formatQuote, formatSigned, profitColor } from '../kit/money';

export { formatQuote as formatUsdt, formatSigned as formatSignedUsdt, profitColor };

/** A return in percent with its sign and two decimals, no space ("+1.23%"); "—" when there is none. */
export const formatReturn = (value: string | null | undefined, locale: string) => formatPercent(value, locale, { signed: true, decimals: 2 });

/** A length of time in its two largest units ("3 d 4 h", "5 min"), in the locale's words. */
export const formatDuration = (seconds: number | null | undefined, locale: string) => {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const units = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
    ['second', 1],
  ] as const;
  const parts: string[] = [];
  let rest = Math.max(0, Math.floor(seconds));
  for (const [unit, size] of units) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || (parts.length === 0 && unit === 'second')) parts.push(new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' }).format(count));
    if (parts.length === 2) break;
    if (parts.length === 1 && count === 0) break;
  }
  return parts.join(' ');
};

/** A date and time, short ("03/05 14:20"): the one time format (kit/time.ts). */
export { formatDateTime } from '../kit/time';
