import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CandleFormatError, candleInterval, parseCandlesCsv, parseTime } from './candles';

export const BTC_MARCH_2023 = join(process.cwd(), 'server', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv');

const errorOf = (text: string): CandleFormatError => {
  try {
    parseCandlesCsv(text);
  } catch (error) {
    if (error instanceof CandleFormatError) return error;
    throw error;
  }
  throw new Error('parsed without error');
};

describe('klines CSV', () => {
  it('reads every time layout to the same epoch milliseconds', () => {
    const at = Date.UTC(2023, 2, 1, 0, 1);
    expect(parseTime(String(at))).toBe(at);
    expect(parseTime(String(at / 1000))).toBe(at);
    expect(parseTime(String(at * 1000))).toBe(at);
    expect(parseTime('2023-03-01T00:01:00Z')).toBe(at);
    expect(parseTime('2023-03-01 00:01:00+00:00')).toBe(at);
    expect(parseTime('2023-03-01 08:01:00+08:00')).toBe(at);
    expect(parseTime('2023-03-01T00:01')).toBe(at);
    expect(parseTime('2023-03-01T00:01:00.000Z')).toBe(at);
    expect(parseTime('open_time')).toBeNull();
    expect(parseTime('2023-02-30 00:00:00')).not.toBeNull(); // Date rolls it over; the order check catches nonsense sequences
    expect(parseTime('yesterday')).toBeNull();
  });

  it('takes a header or none, gaps, extra columns, quotes and CRLF', () => {
    const withHeader = parseCandlesCsv('open_time,open,high,low,close,volume\r\n1677628800000,10,12,9,11,1.5\r\n1677628980000,11,11,10,10.5,0,extra,columns\r\n');
    expect(withHeader).toEqual([
      { time: 1677628800000, open: '10', high: '12', low: '9', close: '11', volume: '1.5' },
      { time: 1677628980000, open: '11', high: '11', low: '10', close: '10.5', volume: '0' },
    ]);
    expect(parseCandlesCsv('"1677628800","10","12","9","11","1"\n')[0]!.time).toBe(1677628800000);
    expect(candleInterval(withHeader)).toBe(180_000);
  });

  it('refuses a bad row with its line number', () => {
    const head = 'open_time,open,high,low,close,volume\n1677628800000,10,12,9,11,1\n';
    expect(errorOf(`${head}1677628860000,10,12,9,0,1\n`)).toMatchObject({ line: 3, reason: expect.stringContaining('close') });
    expect(errorOf(`${head}1677628860000,10,12,9,-1,1\n`).line).toBe(3);
    expect(errorOf(`${head}1677628860000,10,12,9,1e-3x,1\n`).line).toBe(3);
    expect(parseCandlesCsv(`${head}1677628860000,10,12,9,11,9e-05\n`)[1]!.volume).toBe('0.00009');
    expect(errorOf(`${head}1677628860000,10,12,9,11\n`)).toMatchObject({ line: 3, reason: expect.stringContaining('6 columns') });
    expect(errorOf(`${head}\nsoon,10,12,9,11,1\n`)).toMatchObject({ line: 4, reason: expect.stringContaining('open_time') });
    expect(errorOf(`${head}1677628800000,10,12,9,11,1\n`)).toMatchObject({ line: 3, reason: expect.stringContaining('later') });
    expect(errorOf(`${head}1677628860000,10,10.5,9,11,1\n`)).toMatchObject({ line: 3, reason: expect.stringContaining('high') });
    expect(errorOf(`${head}1677628860000,10,12,9,11,lots\n`)).toMatchObject({ line: 3, reason: expect.stringContaining('volume') });
    expect(errorOf('open_time,open,high,low,close,volume\n')).toMatchObject({ reason: 'no candles in the file' });
    expect(() => parseCandlesCsv(`${head}1677628860000,10,12,9,11,1\n`, { maxRows: 1 })).toThrow(/line 3: more than 1 candles/);
  });

  it('reads the bundled three weeks of BTC/USDT minutes', () => {
    const candles = parseCandlesCsv(readFileSync(BTC_MARCH_2023, 'utf8'));
    expect(candles).toHaveLength(30_240);
    expect(candles[0]).toEqual({ time: Date.UTC(2023, 2, 1), open: '23140.48', high: '23150.77', low: '23128.52', close: '23142.31', volume: '2.131777' });
    expect(candleInterval(candles)).toBe(60_000);
    expect(candles.at(-1)!.time).toBe(Date.UTC(2023, 2, 21, 23, 59));
  });
});
