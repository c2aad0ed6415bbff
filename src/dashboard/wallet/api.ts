/**
 * The wallet's calls: query keys and hooks (the wallet pages use these, never
 * the data provider directly). Everything under `['wallet', ...]` is asked
 * again after a money-moving call (useWalletAction).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { Asset, Deposit, LedgerKind, Withdrawal } from '../../api/wallet';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { browserTimeZone } from '../../dataProvider/timeZone';

/** Balances and lists refresh this often while a wallet page is open. */
export const WALLET_REFRESH_MS = 15_000;

export const useApi = () => useDataProvider<AppDataProvider>();

export const walletKeys = {
  all: ['wallet'] as const,
  balances: ['wallet', 'balances'] as const,
  config: ['wallet', 'config'] as const,
  depositAddress: ['wallet', 'deposit-address'] as const,
  addresses: ['wallet', 'addresses'] as const,
  recent: ['wallet', 'recent'] as const,
  downline: ['wallet', 'downline'] as const,
  movements: (kind: 'deposit' | 'withdrawal', query: object) => ['wallet', kind, query] as const,
  records: (query: object) => ['wallet', 'records', query] as const,
};

export const useBalances = () => {
  const api = useApi();
  return useQuery({ queryKey: walletKeys.balances, queryFn: ({ signal }) => api.walletBalances(signal), refetchInterval: WALLET_REFRESH_MS });
};

/** The configured rules (fees, minimums, rates): they change rarely. */
export const useWalletConfig = () => {
  const api = useApi();
  return useQuery({ queryKey: walletKeys.config, queryFn: ({ signal }) => api.walletConfig(signal), staleTime: 60_000 });
};

/** The user's deposit address never changes. */
export const useDepositAddress = () => {
  const api = useApi();
  return useQuery({ queryKey: walletKeys.depositAddress, queryFn: ({ signal }) => api.walletDepositAddress(signal), staleTime: Infinity });
};

/** The withdrawal address book and whether its whitelist is on. */
export const useAddressBook = () => {
  const api = useApi();
  return useQuery({ queryKey: walletKeys.addresses, queryFn: ({ signal }) => api.walletAddresses(signal) });
};

/** The user's deposits or withdrawals, newest first; the first page refreshes itself. */
export const useMovements = (kind: 'deposit' | 'withdrawal', page: number, pageSize: number) => {
  const api = useApi();
  const query = { page, pageSize };
  return useQuery<{ list: (Deposit | Withdrawal)[]; total: number }>({
    queryKey: walletKeys.movements(kind, query),
    queryFn: ({ signal }) => (kind === 'deposit' ? api.walletDeposits(query, signal) : api.walletWithdrawals(query, signal)),
    placeholderData: keepPreviousData,
    refetchInterval: page === 1 ? WALLET_REFRESH_MS : false,
  });
};

export interface Movement {
  kind: 'deposit' | 'withdrawal';
  item: Deposit | Withdrawal;
}

/** The latest deposits and withdrawals together, pending ones first, then newest first. */
export const useRecentMovements = (count: number) => {
  const api = useApi();
  return useQuery({
    queryKey: walletKeys.recent,
    queryFn: async ({ signal }): Promise<Movement[]> => {
      const [deposits, withdrawals] = await Promise.all([api.walletDeposits({ page: 1, pageSize: count }, signal), api.walletWithdrawals({ page: 1, pageSize: count }, signal)]);
      const rows: Movement[] = [...deposits.list.map((item) => ({ kind: 'deposit' as const, item })), ...withdrawals.list.map((item) => ({ kind: 'withdrawal' as const, item }))];
      return rows
        .sort((a, b) => Number(b.item.status === 'pending') - Number(a.item.status === 'pending') || b.item.createdAt.localeCompare(a.item.createdAt))
        .slice(0, count);
    },
    refetchInterval: WALLET_REFRESH_MS,
  });
};

/** The ledger lines of one asset, days in the browser's time zone; the first page refreshes itself. */
export const useRecords = (filter: { asset: Asset; kind?: LedgerKind | undefined; from?: string | undefined; to?: string | undefined; page: number; pageSize: number }, enabled: boolean) => {
  const api = useApi();
  const query = { ...filter, timeZone: browserTimeZone() };
  return useQuery({
    queryKey: walletKeys.records(query),
    queryFn: ({ signal }) => api.walletRecords(query, signal),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: filter.page === 1 ? WALLET_REFRESH_MS : false,
  });
};

/** Members of the user's team to pick as a points recipient (nothing when the call fails: the field still takes an email). */
export const useDownline = (size: number) => {
  const api = useApi();
  return useQuery({
    queryKey: walletKeys.downline,
    queryFn: ({ signal }) => api.inviteCommunity({ scope: 'team', page: 1, pageSize: size }, signal),
    retry: false,
    staleTime: 60_000,
  });
};
