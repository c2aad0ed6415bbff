import { Box, ToggleButton, ToggleButtonGroup, Typography, useMediaQuery, useTheme, type Theme } from '@mui/material';
import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import {
  priceDomain,
  scale,
  spreadLabels,
  timeDomain,
  type ChartFill,
  type ChartLine,
  type ChartView,
  type PricePoint,
} from './chartGeometry';
import { formatPrice } from './taskText';
import { useElementWidth } from '../layout/useElementWidth';

const LABEL_WIDTH = 104;
const LABEL_GAP = 15;
const PAD = { top: 10, right: LABEL_WIDTH + 6, bottom: 22, left: 8 };

interface Label {
  key: string;
  y: number;
  text: string;
  color: string;
  strong: boolean;
}

/**
 * The cycle on one picture: the last prices polled (a line), each ladder
 * level's trigger price, the average cost and the take-profit price
 * (horizontal lines), and this cycle's fills (dots). Drawn by hand in SVG.
 */
export const PriceChart = ({
  symbol,
  points,
  lines,
  fills,
  levelsFilled,
  now,
}: {
  symbol: string;
  points: readonly PricePoint[];
  lines: readonly ChartLine[];
  fills: readonly ChartFill[];
  levelsFilled: number;
  now: number;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const theme = useTheme();
  const isPhone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'), { noSsr: true });
  const [view, setView] = useState<ChartView>('price');
  const { ref, width } = useElementWidth(640);
  const height = isPhone ? 240 : 300;

  const plot = { left: PAD.left, right: width - PAD.right, top: PAD.top, bottom: height - PAD.bottom };
  const yDomain = priceDomain(points, lines, levelsFilled, view);
  const xDomain = timeDomain(points, now);
  const y = scale(yDomain, [plot.bottom, plot.top]);
  const x = scale(xDomain, [plot.left, plot.right]);
  const inside = (price: number) => price >= yDomain[0] && price <= yDomain[1];
  const visible = lines.filter((line) => inside(line.price));
  const offscreen = lines.length - visible.length;

  const palette = theme.palette;
  const lineStyle = (line: ChartLine) => {
    switch (line.kind) {
      case 'first':
        return { stroke: palette.secondary.main, dash: undefined, width: 1.25 };
      case 'average':
        return { stroke: palette.warning.main, dash: undefined, width: 1.75 };
      case 'takeProfit':
        return { stroke: palette.success.main, dash: '6 3', width: 1.75 };
      default:
        return line.filled ? { stroke: palette.info.main, dash: '4 3', width: 1.25 } : { stroke: palette.grey[500], dash: '3 4', width: 1 };
    }
  };
  const lineName = (line: ChartLine) => {
    if (line.kind === 'first') return translate('tasks.chart.first');
    if (line.kind === 'average') return translate('tasks.chart.average');
    if (line.kind === 'takeProfit') return translate('tasks.chart.takeProfit');
    return translate('tasks.chart.level', { level: line.level });
  };

  // Labels at the right edge; with too many lines, only the ones that matter most keep theirs.
  const room = Math.floor((plot.bottom - plot.top) / LABEL_GAP) + 1;
  const lastLevel = lines.reduce((max, l) => (l.kind === 'level' ? Math.max(max, l.level) : max), 0);
  const important = (line: ChartLine) => line.kind !== 'level' || line.level === levelsFilled + 1 || line.level === lastLevel;
  const last = points[points.length - 1];
  const labelled = visible.length + (last ? 1 : 0) > room ? visible.filter(important) : visible;
  const labels: Label[] = labelled.map((line) => ({
    key: `${line.kind}-${line.level}`,
    y: y(line.price),
    text: `${lineName(line)} ${formatPrice(String(line.price), locale)}`,
    color: lineStyle(line).stroke,
    strong: line.kind !== 'level',
  }));
  if (last) labels.push({ key: 'last', y: y(last.price), text: formatPrice(String(last.price), locale), color: palette.primary.main, strong: true });
  const labelYs = spreadLabels(
    labels.map((l) => l.y),
    LABEL_GAP,
    plot.top + 6,
    plot.bottom - 6,
  );

  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.t).toFixed(1)},${y(p.price).toFixed(1)}`).join(' ');
  const clampX = (t: number) => Math.min(Math.max(x(t), plot.left), plot.right);
  const timeOf = (t: number) => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }).format(new Date(t));

  return (
    <Box sx={{ minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="caption" color="text.secondary" sx={{ flexGrow: 1, minWidth: 0 }}>
          {translate('tasks.chart.pollingHint')}
        </Typography>
        <ToggleButtonGroup size="small" exclusive value={view} onChange={(_, next: ChartView | null) => next && setView(next)}>
          <ToggleButton value="price">{translate('tasks.chart.viewPrice')}</ToggleButton>
          <ToggleButton value="ladder">{translate('tasks.chart.viewLadder')}</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <Box ref={ref} sx={{ width: '100%', minWidth: 0 }}>
        <svg
          role="img"
          aria-label={translate('tasks.chart.label', { symbol })}
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          style={{ display: 'block', maxWidth: '100%', fontFamily: theme.typography.fontFamily, fontSize: 11 }}
        >
          <rect x={plot.left} y={plot.top} width={Math.max(plot.right - plot.left, 0)} height={plot.bottom - plot.top} fill={palette.grey[50]} stroke={palette.grey[200]} />
          {visible.map((line) => {
            const style = lineStyle(line);
            const key = `${line.kind}-${line.level}`;
            return (
              <g
                key={key}
                data-line={line.kind}
                {...(line.kind === 'level' || line.kind === 'first' ? { 'data-level': line.level } : {})}
                data-price={line.price}
                data-filled={line.filled ? 'true' : undefined}
              >
                <line x1={plot.left} x2={plot.right} y1={y(line.price)} y2={y(line.price)} stroke={style.stroke} strokeWidth={style.width} strokeDasharray={style.dash} />
                <title>{`${lineName(line)} ${formatPrice(String(line.price), locale)}`}</title>
              </g>
            );
          })}
          {points.length > 1 && <path d={path} fill="none" stroke={palette.primary.main} strokeWidth={2} strokeLinejoin="round" data-series="price" />}
          {last && <circle cx={x(last.t)} cy={y(last.price)} r={3.5} fill={palette.primary.main} />}
          {fills
            .filter((fill) => inside(fill.price))
            .map((fill) => (
              <circle
                key={fill.id}
                data-fill={fill.side}
                cx={clampX(fill.t)}
                cy={y(fill.price)}
                r={5}
                fill={fill.side === 'buy' ? palette.success.main : palette.error.main}
                stroke="#fff"
                strokeWidth={1.5}
              >
                <title>{translate(fill.side === 'buy' ? 'tasks.chart.buyFill' : 'tasks.chart.sellFill', { price: formatPrice(String(fill.price), locale), time: timeOf(fill.t) })}</title>
              </circle>
            ))}
          {labels.map((label, i) => (
            <g key={label.key}>
              {Math.abs(labelYs[i]! - label.y) > 1 && (
                <line x1={plot.right} x2={plot.right + 6} y1={label.y} y2={labelYs[i]!} stroke={label.color} strokeWidth={1} />
              )}
              <text x={plot.right + 8} y={labelYs[i]!} dominantBaseline="middle" fill={label.color} fontWeight={label.strong ? 600 : 400}>
                {label.text}
              </text>
            </g>
          ))}
          <text x={plot.left} y={height - 6} fill={palette.text.secondary}>
            {points.length > 0 ? timeOf(xDomain[0]) : ''}
          </text>
          <text x={plot.right} y={height - 6} fill={palette.text.secondary} textAnchor="end">
            {translate('tasks.chart.now')}
          </text>
          {points.length === 0 && (
            <text x={(plot.left + plot.right) / 2} y={(plot.top + plot.bottom) / 2} fill={palette.text.secondary} textAnchor="middle">
              {translate('tasks.chart.collecting')}
            </text>
          )}
        </svg>
      </Box>
      {lines.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {translate('tasks.chart.waiting')}
        </Typography>
      )}
      {offscreen > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {translate('tasks.chart.offscreen', { count: offscreen })}
        </Typography>
      )}
    </Box>
  );
};
