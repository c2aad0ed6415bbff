/** Number and date formats of the profile area (display only: the values stay decimal strings and ISO times). */

export const formatDate = (iso: string, locale: string) => new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

export const formatDateTime = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(iso));

/** A whole amount of cards or points, fuel with its decimals: display only, the value stays a decimal string. */
export const formatAmount = (value: string | null | undefined, locale: string, maxDecimals = 8) => {
  if (value === null || value === undefined || value === '') return '—';
  const number = Number(value);
  if (!Number.isFinite(number)) return value;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: maxDecimals }).format(number);
};
