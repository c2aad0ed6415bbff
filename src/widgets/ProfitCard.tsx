import type { WidgetClient } from './client';
import { Frame, StateView, formatAmount, profitClass, useWidgetData, type WidgetProps } from './shared';

const loadSummary = (client: WidgetClient, signal: AbortSignal) => client.profitSummary(signal);

/** Total realized profit and today's (in the browser's time zone). */
export const ProfitCard = (props: WidgetProps) => {
  const state = useWidgetData(props, loadSummary);
  const { t, locale, data } = state;
  return (
    <Frame props={props} name="profit-card" title={t('widgets.profitTitle')}>
      <StateView state={state} props={props} />
      {state.status === 'ready' && data && (
        <>
          <div className="stats">
            <div className="stat" data-stat="total">
              <div className="muted">{t('widgets.profitTotal')}</div>
              <div className={`value ${profitClass(data.realizedTotal)}`}>
                {formatAmount(data.realizedTotal, locale, true)}
                <span className="unit">USDT</span>
              </div>
            </div>
            <div className="stat" data-stat="today">
              <div className="muted">{t('widgets.profitToday')}</div>
              <div className={`value ${profitClass(data.realizedToday)}`}>
                {formatAmount(data.realizedToday, locale, true)}
                <span className="unit">USDT</span>
              </div>
            </div>
          </div>
          <p className="muted">{t('widgets.cyclesToday', { count: data.cyclesToday })}</p>
        </>
      )}
    </Frame>
  );
};
