import { Alert, Button } from '@mui/material';
import Big from 'big.js';
import { useGetList, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { formatMoney } from '../../api/format';
import { Link } from 'react-router-dom';
import { ErrorCode } from '../../api/errors';
import { PAPER_EXCHANGE, type ExchangeAccount } from '../../api/exchange';
import { isApiError } from '../../dataProvider/ApiError';
import { EXCHANGES } from '../kit/queries';
import { refusalText } from './taskText';

/** What the user can do about a refused call: go somewhere, or put a value into the form. */
export type Remedy =
  | { kind: 'activate' }
  | { kind: 'bindExchange' }
  | { kind: 'funds'; exchangeId: string | null }
  | { kind: 'coinTasks'; symbol: string }
  | { kind: 'firstOrder'; amount: string };

const dataOf = (error: unknown): Record<string, unknown> =>
  isApiError(error) && typeof error.data === 'object' && error.data !== null ? (error.data as Record<string, unknown>) : {};

const isAmount = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    return new Big(value).gt(0);
  } catch {
    return false;
  }
};

/**
 * The remedy of a refusal, from its code and what the server sent with it:
 * 11001 activate (real exchange accounts only: paper needs none), 11006 bind
 * an account, 11003 the funds of the account, 14001 the tasks of that coin,
 * 10002 below_min_order the smallest first order that passes (a buy ladder's;
 * a position's sale has none).
 */
export const remedyOf = (error: unknown, exchangeId: string | null = null): Remedy | null => {
  if (!isApiError(error)) return null;
  const data = dataOf(error);
  switch (error.code) {
    case ErrorCode.USER_NOT_ACTIVATED:
      return { kind: 'activate' };
    case ErrorCode.API_KEY_NOT_BOUND:
      return { kind: 'bindExchange' };
    case ErrorCode.INSUFFICIENT_BALANCE:
      return { kind: 'funds', exchangeId };
    case ErrorCode.TASK_PER_COIN_LIMIT:
      return typeof data.symbol === 'string' ? { kind: 'coinTasks', symbol: data.symbol } : null;
    case ErrorCode.PARAM_RANGE:
      return data.reason === 'below_min_order' && isAmount(data.minFirstOrder) ? { kind: 'firstOrder', amount: new Big(data.minFirstOrder).toFixed() } : null;
    default:
      return null;
  }
};

/** The task list filtered to one coin (react-admin keeps a list's filter in the address). */
export const coinTasksPath = (symbol: string) => `/trade?${new URLSearchParams({ filter: JSON.stringify({ symbol }) }).toString()}`;

/** 11003: the wallet for a real account, the paper account's own page (its virtual balance) for a paper one. */
const FundsButton = ({ exchangeId }: { exchangeId: string | null }) => {
  const translate = useTranslate();
  // The same query as the wizard's account choice (shared cache).
  const accounts = useGetList<ExchangeAccount>(EXCHANGES, { pagination: { page: 1, perPage: 100 }, sort: { field: 'createdAt', order: 'ASC' } }, { enabled: exchangeId !== null });
  const account = accounts.data?.find((candidate) => candidate.id === exchangeId);
  if (account?.exchange === PAPER_EXCHANGE) {
    return (
      <Button color="inherit" size="small" component={Link} to={`/exchange/edit/${account.id}`}>
        {translate('tasks.remedy.paperBalance')}
      </Button>
    );
  }
  if (exchangeId !== null && !account) return null;
  return (
    <Button color="inherit" size="small" component={Link} to="/profile/wallet">
      {translate('tasks.remedy.wallet')}
    </Button>
  );
};

const RemedyButton = ({ remedy, onFirstOrder }: { remedy: Remedy; onFirstOrder?: ((amount: string) => void) | undefined }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  switch (remedy.kind) {
    case 'activate':
      return (
        <Button color="inherit" size="small" component={Link} to="/profile/activate">
          {translate('tasks.remedy.activate')}
        </Button>
      );
    case 'bindExchange':
      return (
        <Button color="inherit" size="small" component={Link} to="/exchange/add">
          {translate('tasks.remedy.bindExchange')}
        </Button>
      );
    case 'funds':
      return <FundsButton exchangeId={remedy.exchangeId} />;
    case 'coinTasks':
      return (
        <Button color="inherit" size="small" component={Link} to={coinTasksPath(remedy.symbol)}>
          {translate('tasks.remedy.coinTasks', { symbol: remedy.symbol })}
        </Button>
      );
    case 'firstOrder':
      return onFirstOrder ? (
        <Button color="inherit" size="small" onClick={() => onFirstOrder(remedy.amount)}>
          {translate('tasks.remedy.firstOrder', { amount: formatMoney(remedy.amount, locale) })}
        </Button>
      ) : null;
  }
};

/**
 * A refused call's message with its remedy beside it, as a button. `exchangeId`
 * is the account the call was about (it tells a paper balance from the wallet);
 * `onFirstOrder` puts the smallest first order that passes into the form.
 */
export const RefusalWithRemedy = ({
  error,
  exchangeId = null,
  onFirstOrder,
}: {
  error: unknown;
  exchangeId?: string | null;
  onFirstOrder?: (amount: string) => void;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const remedy = remedyOf(error, exchangeId);
  return (
    <Alert
      severity="error"
      role="alert"
      data-refusal={isApiError(error) ? error.code : undefined}
      action={remedy ? <RemedyButton remedy={remedy} onFirstOrder={onFirstOrder} /> : undefined}
      sx={{ alignItems: 'center', flexWrap: 'wrap', '& .MuiAlert-message': { minWidth: 0, flex: '1 1 12rem', overflowWrap: 'anywhere' }, '& .MuiAlert-action': { ml: 'auto', pl: 1 } }}
    >
      {refusalText(error, translate, locale)}
    </Alert>
  );
};

/** A toast for a refused task action: the refusal with its remedy when it has one, else its text. */
export const useNotifyRefusal = () => {
  const notify = useNotify();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (error: unknown, exchangeId: string | null = null) =>
    remedyOf(error, exchangeId) !== null
      ? notify(<RefusalWithRemedy error={error} exchangeId={exchangeId} />, { type: 'error' })
      : notify(refusalText(error, translate, locale), { type: 'error' });
};
