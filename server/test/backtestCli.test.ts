import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktestCommand } from '../src/cli/backtest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const SAMPLE = join(ROOT, 'server', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv');
const dir = mkdtempSync(join(tmpdir(), 'qt-backtest-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const strategy = file(
  'strategy.json',
  JSON.stringify({
    levels: [
      { dropPercent: '2', multiple: '1' },
      { dropPercent: '4', multiple: '1.5' },
      { dropPercent: '7', multiple: '2.25' },
    ],
    takeProfitPercent: '1.5',
    takeProfitCallbackPercent: '0.3',
    replenishCallbackPercent: '0',
    stopLossPercent: null,
    cooldownSeconds: 60,
  }),
);
const BTC_RULES = ['--amount-step', '0.00001', '--min-amount', '0.00001', '--min-cost', '5'];

/** The command in-process: exit code and what it wrote. */
const command = async (args: string[]) => {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runBacktestCommand(args, { log: (line) => stdout.push(line), error: (line) => stderr.push(line) });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
};

describe('npm run backtest', () => {
  it('prints one JSON object and nothing else on stdout with --json', async () => {
    const { stdout, stderr } = await run('npm', ['run', '-s', 'backtest', '--', '--candles', SAMPLE, '--strategy', strategy, '--first-order', '10', ...BTC_RULES, '--json'], { cwd: ROOT });
    expect(stderr.replace(/^npm warn.*\n?/gm, '')).toBe('');
    const figures = JSON.parse(stdout);
    expect(Object.keys(figures)).toEqual(['cycles', 'realizedProfit', 'fees', 'buys', 'sells', 'maxFundsInUse', 'maxDrawdown', 'openPosition', 'stopped']);
    expect(figures.stopped).toBeNull();
    expect(figures.cycles).toBeGreaterThan(10);
    expect(figures.buys).toBeGreaterThanOrEqual(figures.sells);
    // The same as the command run in-process (the code the API's worker runs).
    const inProcess = await command(['--candles', SAMPLE, '--strategy', strategy, '--first-order', '10', ...BTC_RULES, '--json']);
    expect(JSON.parse(inProcess.stdout)).toEqual(figures);
  });

  it('prints the figures for people, and applies every option', async () => {
    const base = ['--candles', SAMPLE, '--strategy', strategy, '--first-order', '10', ...BTC_RULES];
    const human = await command(base);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^30240 candles of 1 min, 2023-03-01 00:00 to 2023-03-22 00:00 UTC, fill close/);
    expect(human.stdout).toMatch(/Cycles\s+\d+\nRealized profit\s+[\d.]+ QUOTE/);
    const json = async (extra: string[]) => JSON.parse((await command([...base, '--json', ...extra])).stdout);
    const plain = await json([]);
    expect(await json(['--cycles', '2'])).toMatchObject({ cycles: 2 });
    expect((await json(['--first-order-multiple'])).maxFundsInUse).not.toBe(plain.maxFundsInUse);
    expect((await json(['--fee', '0'])).fees).toBe('0');
    expect((await json(['--fee-asset', 'quote'])).openPosition?.quantity).not.toBe(plain.openPosition?.quantity);
    expect((await json(['--fill', 'ohlc'])).realizedProfit).not.toBe(plain.realizedProfit);
  });

  it('says why trading stopped, and exits 3 with a message when the rules refuse the first order', async () => {
    const base = ['--candles', SAMPLE, '--strategy', strategy, '--first-order', '10', ...BTC_RULES];
    // A minimum cost above the first order: nothing can be bought.
    const refused = await command([...base, '--min-cost', '11', '--json']);
    expect(refused.code).toBe(3);
    expect(JSON.parse(refused.stdout)).toMatchObject({ buys: 0, cycles: 0, stopped: { reason: 'below_min_cost', side: 'buy', level: 0 } });
    expect(refused.stderr).toMatch(/nothing was traded: the market's rules refuse the buy of level 0 at [\d.]+, 2023-03-01 00:01 UTC: below the minimum cost \(--min-cost\)/);
    const human = await command([...base, '--min-cost', '11']);
    expect(human.code).toBe(3);
    expect(human.stdout).toMatch(/Stopped\s+the market's rules refuse the buy of level 0/);
    expect(human.stderr).toContain('Raise --first-order');
    // A later level refused: the run traded, says where it stopped, and succeeds.
    const later = await command([...base, '--min-cost', '10.5', '--first-order-multiple', '--json']);
    expect(later.code).toBe(0);
    expect(JSON.parse(later.stdout)).toMatchObject({ buys: 2, stopped: { reason: 'below_min_cost', side: 'buy', level: 1 } });
  });

  it('refuses bad input with a message and an exit code', async () => {
    const base = ['--strategy', strategy, '--first-order', '10'];
    const badRow = file('bad.csv', 'open_time,open,high,low,close,volume\n1677628800000,10,11,9,10,1\n1677628860000,10,11,twelve,10,1\n');
    expect(await command(['--candles', badRow, ...base])).toMatchObject({ code: 1, stderr: expect.stringContaining('bad.csv line 3: low is not a price above 0') });
    expect(await command(['--candles', join(dir, 'missing.csv'), ...base])).toMatchObject({ code: 1, stderr: expect.stringContaining('ENOENT') });
    const badStrategy = file('bad.json', JSON.stringify({ levels: [{ dropPercent: '4', multiple: '1' }, { dropPercent: '2', multiple: '1' }], takeProfitPercent: '1.5' }));
    expect(await command(['--candles', SAMPLE, '--strategy', badStrategy, '--first-order', '10'])).toMatchObject({ code: 1, stderr: expect.stringContaining('drops must increase') });
    expect(await command(['--candles', SAMPLE, '--strategy', file('x.json', '{levels'), '--first-order', '10'])).toMatchObject({ code: 1, stderr: expect.stringContaining('not JSON') });
    for (const args of [['--candles', SAMPLE, ...base, '--fill', 'vwap'], ['--candles', SAMPLE, ...base, '--fee', '1e-3'], ['--candles', SAMPLE, '--strategy', strategy], ['--candles', SAMPLE, ...base, '--bogus']]) {
      const result = await command(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('usage: npm run backtest');
      expect(result.stdout).toBe('');
    }
  });
});
