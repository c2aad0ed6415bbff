import type { ProfitOverview } from '../api/member';
import type { ProfitSummary } from '../api/trade';
import type { LocaleCode } from '../api/types';
import type { WidgetClient } from './client';
import type { Translate } from './i18n';
import { Frame, StateView, formatAmount, profitClass, useWidgetData, type WidgetProps } from './shared';

/** Days the card's chart shows. */
export const CHART_DAYS = 14;

type Day = ProfitOverview['daily'][number];

interface CardData {
  summary: ProfitSummary;
  /** Null when the daily figures could not be had: the card shows its totals without the chart. */
  daily: Day[] | null;
}

/**
 * The totals, then the days. One after the other, not at once: a stale token
 * ends the session once, and the chart never hides the totals when it fails.
 */
const loadCard = async (client: WidgetClient, signal: AbortSignal): Promise<CardData> => {
  const summary = await client.profitSummary(signal);
  let daily: Day[] | null = null;
  try {
    daily = (await client.profitOverview(CHART_DAYS, signal)).daily.slice(-CHART_DAYS);
  } catch (error) {
    if (signal.aborted) throw error;
  }
  return { summary, daily };
};

const VIEW = { width: 280, height: 56 };

/** Bar geometry in the chart's own coordinates (display only: heights from the decimal strings). */
export const dayBars = (days: readonly Day[]) => {
  const values = days.map((d) => Number(d.profit) || 0);
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  // No losing day: the zero line is the bottom edge, so flat days stay inside the chart, never over its label.
  const zero = min === 0 ? VIEW.height : (max / span) * VIEW.height;
  const slot = days.length > 0 ? VIEW.width / days.length : 0;
  return {
    zero,
    bars: days.map((day, i) => {
      const value = values[i]!;
      const height = Math.max((Math.abs(value) / span) * VIEW.height, 1);
      // A flat or rising bar stands on the zero line, a falling one hangs from it; both within the chart's box.
      const y = value >= 0 ? Math.max(0, zero - height) : Math.min(zero, VIEW.height - height);
      return { day, x: slot * i + slot * 0.15, width: slot * 0.7, y, height, sign: value > 0 ? 'up' : value < 0 ? 'down' : 'flat' };
    }),
  };
};

/** The last days' realized profit: plain SVG bars, up and down in the price colour scheme. */
const DailyChart = ({ days, t, locale }: { days: readonly Day[]; t: Translate; locale: LocaleCode }) => {
  const { zero, bars } = dayBars(days);
  return (
    <div className="chart" data-chart="daily" style={{ marginTop: 12 }}>
      <div className="muted">{t('widgets.profitChart', { count: days.length })}</div>
      <svg
        role="img"
        aria-label={t('widgets.profitChart', { count: days.length })}
        viewBox={`0 0 ${VIEW.width} ${VIEW.height}`}
        preserveAspectRatio="none"
        width="100%"
        height={VIEW.height}
        style={{ display: 'block', overflow: 'hidden', marginTop: 4 }}
      >
        <line x1={0} x2={VIEW.width} y1={zero} y2={zero} className="muted" stroke="currentColor" strokeWidth={0.5} />
        {bars.map((bar) => (
          <rect
            key={bar.day.date}
            data-date={bar.day.date}
            data-sign={bar.sign}
            className={bar.sign === 'flat' ? 'muted' : bar.sign}
            fill="currentColor"
            x={bar.x}
            y={bar.y}
            width={bar.width}
            height={bar.height}
          >
            <title>{t('widgets.profitChartBar', { date: bar.day.date, profit: formatAmount(bar.day.profit, locale, true) })}</title>
          </rect>
        ))}
      </svg>
      {bars.length > 0 && (
        <div className="muted" style={{ display: 'flex', justifyContent: 'space-between' }}>
          <span>{bars[0]!.day.date.slice(5)}</span>
          <span>{bars[bars.length - 1]!.day.date.slice(5)}</span>
        </div>
      )}
    </div>
  );
};

/** Total realized profit and today's (in the browser's time zone), and the last 14 days as bars. */
export const ProfitCard = (props: WidgetProps) => {
  const state = useWidgetData(props, loadCard);
  const { t, locale, data } = state;
  const summary = data?.summary;
  return (
    <Frame props={props} name="profit-card" title={t('widgets.profitTitle')}>
      <StateView state={state} props={props} />
      {state.status === 'ready' && summary && (
        <>
          <div className="stats">
            <div className="stat" data-stat="total">
              <div className="muted">{t('widgets.profitTotal')}</div>
              <div className={`value ${profitClass(summary.realizedTotal)}`}>
                {formatAmount(summary.realizedTotal, locale, true)}
                <span className="unit">USDT</span>
              </div>
            </div>
            <div className="stat" data-stat="today">
              <div className="muted">{t('widgets.profitToday')}</div>
              <div className={`value ${profitClass(summary.realizedToday)}`}>
                {formatAmount(summary.realizedToday, locale, true)}
                <span className="unit">USDT</span>
              </div>
            </div>
          </div>
          <p className="muted">{t('widgets.cyclesToday', { count: summary.cyclesToday })}</p>
          {data.daily && data.daily.length > 0 && <DailyChart days={data.daily} t={t} locale={locale} />}
        </>
      )}
    </Frame>
  );
};
