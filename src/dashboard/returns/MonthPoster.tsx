import Big from 'big.js';
import { useLocaleState, useTranslate } from 'react-admin';
import { trend } from '../../api/format';
import type { ProfitOverview } from '../../api/member';
import type { ReturnsPoint } from '../../api/returns';
import type { MonthPosterProps } from '../kit/embeds';
import { formatSignedUsdt } from './format';
import { PosterButton } from './poster/PosterButton';

/** The last days' realized profit summed day after day (a point at each day's noon, UTC). */
export const monthCurve = (daily: ProfitOverview['daily']): ReturnsPoint[] => {
  let sum = new Big(0);
  return daily.map((day) => {
    sum = sum.plus(day.profit);
    return { time: `${day.date}T12:00:00.000Z`, profit: sum.toFixed() };
  });
};

/** The poster of the last 30 days' return (profit and rank pages); with `rank`, the user's place in the title. */
export const MonthPosterButton = ({ summary: data, rank }: MonthPosterProps) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const content = () => {
    const s = data!;
    const cycles = s.daily.reduce((n, day) => n + day.cycles, 0);
    return {
      texts: {
        title: rank ? translate('poster.rankTitle', { rank }) : translate('poster.monthTitle'),
        mainLabel: translate('poster.monthTitle'),
        main: `${formatSignedUsdt(s.last30Days, locale)} USDT`,
        secondLabel: translate('profile.profit.total'),
        second: `${formatSignedUsdt(s.total, locale)} USDT`,
        lines: [translate('poster.cycles', { count: cycles })],
      },
      trend: trend(s.last30Days),
      points: monthCurve(s.daily),
      fileName: translate('poster.fileMonth'),
    };
  };
  return <PosterButton content={content} disabled={!data} />;
};
