import { PAPER_EXCHANGE } from '../api/exchange';
import type { WidgetClient } from './client';
import { Frame, StateView, useWidgetData, type WidgetProps } from './shared';

const loadAccounts = (client: WidgetClient, signal: AbortSignal) => client.exchangeAccounts(signal);

/**
 * The user's exchange accounts by name. Balances arrive with the custodial
 * wallet; until then this lists the accounts the tasks trade on.
 */
export const WalletBalance = (props: WidgetProps) => {
  const state = useWidgetData(props, loadAccounts);
  const { t, data } = state;
  return (
    <Frame props={props} name="wallet-balance" title={t('widgets.accountsTitle')}>
      <StateView state={state} props={props} />
      {state.status === 'ready' && data && data.list.length === 0 && <p className="state">{t('widgets.accountsEmpty')}</p>}
      {state.status === 'ready' && data && data.list.length > 0 && (
        <ul>
          {data.list.map((account) => (
            <li key={account.id} className="row" data-account-id={account.id}>
              <span className="pair">{account.name}</span>
              <span className="muted">{account.exchange === PAPER_EXCHANGE ? t('widgets.paper') : account.exchange}</span>
            </li>
          ))}
        </ul>
      )}
    </Frame>
  );
};
