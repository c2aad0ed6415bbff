import { Box, useTheme } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatSigned } from '../kit/money';
import { useElementWidth } from '../layout/useElementWidth';

export interface DayPoint {
  date: string;
  profit: string;
  cycles: number;
}

export type BarSign = 'positive' | 'negative' | 'zero';

export const signOf = (value: string): BarSign => {
  const number = Number(value);
  if (number > 0) return 'positive';
  if (number < 0) return 'negative';
  return 'zero';
};

/** Bars of the days around a zero line: heights only (display), the values stay decimal strings. */
export const barGeometry = (days: readonly DayPoint[], plot: { left: number; right: number; top: number; bottom: number }) => {
  const values = days.map((d) => Number(d.profit) || 0);
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const zero = plot.top + ((max - 0) / span) * (plot.bottom - plot.top);
  const slot = days.length > 0 ? (plot.right - plot.left) / days.length : 0;
  const width = Math.max(1, Math.min(28, slot * 0.7));
  return {
    zero,
    max,
    min,
    bars: days.map((day, i) => {
      const value = values[i]!;
      const length = (Math.abs(value) / span) * (plot.bottom - plot.top);
      // A day without profit still shows a hairline, so every day has its bar.
      const height = Math.max(length, 1);
      return {
        day,
        x: plot.left + slot * i + (slot - width) / 2,
        y: value >= 0 ? zero - height : zero,
        width,
        height,
        sign: signOf(day.profit),
      };
    }),
  };
};

const shortDate = (date: string) => date.slice(5);

/** Daily realized profit as bars: green above the zero line, red below. Drawn by hand in SVG. */
export const ProfitBarChart = ({ days, height = 200 }: { days: readonly DayPoint[]; height?: number }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const theme = useTheme();
  const { ref, width } = useElementWidth(600);
  // A losing day puts the lowest value under the plot, on a line of its own above the dates.
  const hasLoss = days.some((day) => Number(day.profit) < 0);
  const pad = { top: 16, right: 8, bottom: hasLoss ? 36 : 22, left: 8 };
  const plot = { left: pad.left, right: width - pad.right, top: pad.top, bottom: height - pad.bottom };
  const { zero, bars, max, min } = barGeometry(days, plot);
  const palette = theme.palette;
  const color = { positive: palette.up.main, negative: palette.down.main, zero: palette.grey[400] };
  const label = (day: DayPoint) => translate('profile.chart.bar', { date: day.date, profit: formatSigned(day.profit, locale), count: day.cycles });
  const middle = bars[Math.floor(bars.length / 2)];

  return (
    <Box ref={ref} sx={{ width: '100%', minWidth: 0 }}>
      <svg
        role="group"
        aria-label={translate('profile.chart.label', { count: days.length })}
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        style={{ display: 'block', maxWidth: '100%', fontFamily: theme.typography.fontFamily, fontSize: 11 }}
        data-chart="daily-profit"
      >
        <line x1={plot.left} x2={plot.right} y1={zero} y2={zero} stroke={palette.grey[400]} strokeWidth={1} />
        {max > 0 && (
          <text x={plot.left} y={plot.top - 4} fill={palette.text.secondary}>
            {formatSigned(String(max), locale)}
          </text>
        )}
        {min < 0 && (
          <text x={plot.left} y={plot.bottom + 12} fill={palette.text.secondary}>
            {formatSigned(String(min), locale)}
          </text>
        )}
        {bars.map((bar) => (
          <rect
            key={bar.day.date}
            role="img"
            aria-label={label(bar.day)}
            data-date={bar.day.date}
            data-sign={bar.sign}
            x={bar.x}
            y={bar.y}
            width={bar.width}
            height={bar.height}
            rx={Math.min(3, bar.width / 4)}
            fill={color[bar.sign]}
          >
            <title>{label(bar.day)}</title>
          </rect>
        ))}
        {bars.length > 0 && (
          <>
            <text x={bars[0]!.x} y={height - 6} fill={palette.text.secondary}>
              {shortDate(bars[0]!.day.date)}
            </text>
            {middle && bars.length > 4 && (
              <text x={middle.x + middle.width / 2} y={height - 6} fill={palette.text.secondary} textAnchor="middle">
                {shortDate(middle.day.date)}
              </text>
            )}
            <text x={plot.right} y={height - 6} fill={palette.text.secondary} textAnchor="end">
              {shortDate(bars[bars.length - 1]!.day.date)}
            </text>
          </>
        )}
      </svg>
    </Box>
  );
};
