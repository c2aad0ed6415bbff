import { createTheme } from '@mui/material';
import { describe, expect, it, vi } from 'vitest';
import { formatDateTime as cycleTime } from '../returns/format';
import { formatTime as logTime } from '../trade/taskText';
import { chartFrame } from './chartFrame';
import { chartTickLabel, formatDateTime } from './time';

// The user is in Shanghai (UTC+8), whatever zone the test machine runs in.
vi.mock('../../dataProvider/timeZone', () => ({ browserTimeZone: () => 'Asia/Shanghai' }));

const AT = '2026-03-01T04:03:19.000Z';
const seconds = Date.parse(AT) / 1000;
// lightweight-charts' TickMarkType: DayOfMonth 2, Time 3, TimeWithSeconds 4.
const TIME = 3;
const TIME_WITH_SECONDS = 4;

describe('one time format in the user time zone', () => {
  it('writes the log, the cycles table and the charts alike, in local time, to the minute', () => {
    expect(formatDateTime(AT, 'zh-CN')).toBe('03/01 12:03');
    expect(logTime(AT, 'zh-CN')).toBe('03/01 12:03');
    expect(cycleTime(AT, 'zh-CN')).toBe('03/01 12:03');
    const frame = chartFrame(createTheme(), 'zh-CN');
    expect(frame.timeFormatter(seconds as never)).toBe('03/01 12:03');
  });

  it("gives both charts' axes (candles and profit curves) the same local ticks, never with seconds", () => {
    const { tickMarkFormatter } = chartFrame(createTheme(), 'zh-CN');
    expect(tickMarkFormatter(seconds as never, TIME)).toBe('12:03');
    expect(tickMarkFormatter(seconds as never, TIME_WITH_SECONDS)).toBe('12:03');
    expect(tickMarkFormatter(seconds as never, 2)).toBe('03/01');
    expect(chartTickLabel('en-US', 'UTC')(seconds as never, TIME)).toBe('04:03');
  });
});
