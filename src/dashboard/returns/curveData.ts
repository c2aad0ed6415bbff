import type { ReturnsPoint } from '../../api/returns';

/** A point as the chart library takes it: UTC seconds and a number (display only). */
export interface CurveBar {
  time: number;
  value: number;
}

/**
 * The curve in whole seconds, strictly increasing as the chart needs: points
 * within one second keep the last; `origin` (the task's start) adds a zero
 * before the first point.
 */
export const curveBars = (points: readonly ReturnsPoint[], origin?: string | null): CurveBar[] => {
  const bars: CurveBar[] = [];
  const push = (iso: string, value: number) => {
    const time = Math.floor(Date.parse(iso) / 1000);
    const last = bars[bars.length - 1];
    if (last && time <= last.time) last.value = value;
    else bars.push({ time, value });
  };
  if (origin && points.length > 0) push(origin, 0);
  for (const point of points) push(point.time, Number(point.profit));
  return bars;
};
