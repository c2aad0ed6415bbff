import { Box, Skeleton, Typography } from '@mui/material';
import { lazy, Suspense, useMemo } from 'react';
import type { ReturnsPoint } from '../../api/returns';
import { curveBars } from './curveData';

// The chart library loads with the chart, not with the dashboard.
const ProfitCurveChart = lazy(() => import('./ProfitCurveChart'));

/** A cumulative-profit curve, or a line saying when it will start. */
export const ProfitCurve = ({ points, origin, height, label, empty }: { points: readonly ReturnsPoint[]; origin?: string | null; height: number; label: string; empty: string }) => {
  const bars = useMemo(() => curveBars(points, origin), [points, origin]);
  if (bars.length === 0) {
    return (
      <Typography color="text.secondary" data-curve="empty">
        {empty}
      </Typography>
    );
  }
  return (
    <Box data-curve={bars.length} sx={{ minWidth: 0 }}>
      <Suspense fallback={<Skeleton variant="rounded" height={height} />}>
        <ProfitCurveChart bars={bars} height={height} label={label} />
      </Suspense>
    </Box>
  );
};
