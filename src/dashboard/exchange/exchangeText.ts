import { formatQuantity } from '../../api/format';
import {
  PAPER_EXCHANGE,
  SIMULATOR,
  type CredentialField,
  type ExchangeCatalogEntry,
  type ExchangeUnavailableReason,
  type KeyRefusalReason,
} from '../../api/exchange';
import type { DecimalString } from '../../api/types';
import { isApiError } from '../../dataProvider/ApiError';
import { formatClock } from '../kit/time';

type Translate = (key: string, options?: Record<string, unknown>) => string;

export const CREDENTIAL_FIELDS: readonly CredentialField[] = ['apiKey', 'secret', 'password', 'uid'];

/** Secrets are typed into password inputs; the key and the uid are not secret on their own. */
export const isSecretField = (field: CredentialField) => field === 'secret' || field === 'password';

/** The catalog names the paper exchange in English; every other name is a brand and stays as it is. */
export const exchangeLabel = (exchangeId: string, catalog: readonly ExchangeCatalogEntry[] | undefined, translate: Translate) =>
  exchangeId === PAPER_EXCHANGE ? translate('exchange.paperName') : (catalog?.find((entry) => entry.id === exchangeId)?.name ?? exchangeId);

/** A paper account's price source as the add form offers it: 'Binance 实时行情', or the built-in simulator. */
export const priceSourceLabel = (source: string, catalog: readonly ExchangeCatalogEntry[] | undefined, translate: Translate) =>
  source === SIMULATOR ? translate('exchange.priceSourceSimulator') : translate('exchange.priceSourceLive', { exchange: exchangeLabel(source, catalog, translate) });

/** Reasons with their own explanation under `exchange.reason.*` (the server's `data.reason`). */
const EXPLAINED_REASONS = {
  invalid_key: true,
  permission_denied: true,
  account_suspended: true,
  exchange_refused: true,
  cannot_trade: true,
  can_withdraw: true,
  exchange_unreachable: true,
  exchange_busy: true,
  clock_skew: true,
  restricted_location: true,
  bad_response: true,
  in_use: true,
} as const satisfies Record<KeyRefusalReason | ExchangeUnavailableReason | 'in_use', true>;

const errorData = (error: unknown): { reason?: unknown; field?: unknown } | null =>
  isApiError(error) && typeof error.data === 'object' && error.data !== null ? (error.data as { reason?: unknown; field?: unknown }) : null;

/** The explanation of a refusal's reason in the current language, or null when the refusal gives none we know. */
export const refusalExplanation = (error: unknown, translate: Translate, locale?: string): string | null => {
  const data = errorData(error);
  const reason = data?.reason;
  const until = (data as { until?: unknown } | null)?.until;
  // A rate limit or a ban that names its end: when to try again, as the reader's clock shows it.
  if (reason === 'exchange_busy' && typeof until === 'string' && !Number.isNaN(Date.parse(until))) {
    return translate('exchange.reason.exchange_busy_until', { time: formatClock(until, locale ?? 'zh-CN') });
  }
  return typeof reason === 'string' && Object.hasOwn(EXPLAINED_REASONS, reason) ? translate(`exchange.reason.${reason}`) : null;
};

/** The form field a refusal points at (`data.field`), if any. */
export const refusedField = (error: unknown): string | null => {
  const field = errorData(error)?.field;
  return typeof field === 'string' ? field : null;
};

/** '10,000 USDT' in the reader's number format (display only: the amounts stay strings everywhere else). */
export const formatBalances = (balances: Record<string, DecimalString>, locale: string) => {
  return Object.entries(balances)
    .map(([asset, amount]) => `${formatQuantity(amount, locale)} ${asset}`)
    .join(', ');
};

/** The exchange's name, or 'OKX 2', 'OKX 3'... when the user already has an account called that. */
export const suggestedName = (label: string, taken: readonly string[]) => {
  const names = new Set(taken.map((name) => name.toLowerCase()));
  if (!names.has(label.toLowerCase())) return label;
  for (let n = 2; ; n += 1) if (!names.has(`${label} ${n}`.toLowerCase())) return `${label} ${n}`;
};
