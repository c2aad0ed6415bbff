import { formatAsset } from '../api/format';
import { ASSETS, type Asset, type AssetBalance } from '../api/wallet';
import type { LocaleCode } from '../api/types';
import { walletUrl, type WidgetClient } from './client';
import { Frame, StateView, useWidgetData, type WidgetProps } from './shared';

const loadBalances = (client: WidgetClient, signal: AbortSignal) => client.walletBalances(signal);

/** A balance as the dashboard's wallet shows it (src/api/format.ts formatAsset): the asset's own decimals. */
export const formatBalance = (value: string, asset: Asset, locale: LocaleCode): string => formatAsset(value, asset, locale);

const isZero = (value: string) => /^-?0*(\.0*)?$/.test(value);

/** The four assets in their fixed order; an asset the answer leaves out has nothing. */
const ordered = (balances: AssetBalance[]): AssetBalance[] =>
  ASSETS.map((asset) => balances.find((b) => b.asset === asset) ?? { asset, available: '0', held: '0' });

/** The custodial wallet's balances: available, and what pending withdrawals hold. */
export const WalletBalance = (props: WidgetProps) => {
  const state = useWidgetData(props, loadBalances);
  const { t, locale, data } = state;
  return (
    <Frame props={props} name="wallet-balance" title={t('widgets.walletTitle')}>
      <StateView state={state} props={props} />
      {state.status === 'ready' && data && (
        <>
          <ul>
            {ordered(data.balances).map((balance) => (
              <li key={balance.asset} className="row" data-asset={balance.asset}>
                <span className="pair">{t(`widgets.assets.${balance.asset}`)}</span>
                <span className="right">
                  <span className="num pair" data-field="available">
                    {formatBalance(balance.available, balance.asset, locale)}
                  </span>
                  {!isZero(balance.held) && (
                    <span className="muted" style={{ display: 'block' }} data-field="held">
                      {t('widgets.held', { amount: formatBalance(balance.held, balance.asset, locale) })}
                    </span>
                  )}
                </span>
              </li>
            ))}
          </ul>
          {props.dashboardUrl && (
            <a className="action" href={walletUrl(props.dashboardUrl)} target="_top">
              {t('widgets.openWallet')}
            </a>
          )}
        </>
      )}
    </Frame>
  );
};
