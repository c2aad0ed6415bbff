/**
 * Every number and time the returns pages and the poster show goes through
 * here, so the area can move to a shared format module by changing this file
 * only. Display only: the values stay decimal strings.
 */
import { formatQuote, formatSigned, profitColor } from '../trade/taskText';

export { formatQuote as formatUsdt, formatSigned as formatSignedUsdt, profitColor };

/** A percent with its sign and two decimals ("+1.23 %"); "—" when there is none. */
export const formatPercent = (value: string | null | undefined, locale: string) => {
  if (value === null || value === undefined || value === '') return '—';
  const number = Number(value);
  if (!Number.isFinite(number)) return value;
  const text = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' }).format(number);
  return `${text} %`;
};

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

/** A date and time, short ("03/05 14:20"). */
export const formatDateTime = (iso: string | null | undefined, locale: string) =>
  iso ? new Intl.DateTimeFormat(locale, { month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(iso)) : '—';
