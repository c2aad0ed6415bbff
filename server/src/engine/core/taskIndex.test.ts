import { describe, expect, it } from 'vitest';
import { createTaskIndex } from './taskIndex';

describe('the task index', () => {
  it('hands out a task when the price leaves its quiet interval, once, until it is filed again', () => {
    const index = createTaskIndex();
    index.place('a', { by: 'price', symbol: 'BTC/USDT', above: 99, below: 101 });
    index.place('b', { by: 'price', symbol: 'BTC/USDT', above: 95, below: 105 });
    index.place('c', { by: 'price', symbol: 'ETH/USDT', above: 9, below: 11 });
    const prices = (btc: number, eth = 10) => new Map([['BTC/USDT', btc], ['ETH/USDT', eth]]);
    expect(index.due(prices(100), 0, 1)).toEqual([]);
    expect(index.due(prices(98.5), 0, 2)).toEqual(['a']);
    // Not filed again: not handed out again, even further out.
    expect(index.due(prices(90), 0, 3)).toEqual(['b']);
    index.place('a', { by: 'price', symbol: 'BTC/USDT', above: 80, below: 92 });
    // Its old entries (99 / 101) are stale: only the new interval counts.
    expect(index.due(prices(100), 0, 4)).toEqual(['a']);
    expect(index.due(prices(100, 12), 0, 5)).toEqual(['c']);
    // A symbol without a price this tick: its tasks wait.
    index.place('c', { by: 'price', symbol: 'ETH/USDT', above: 9, below: 11 });
    expect(index.due(new Map([['BTC/USDT', 100]]), 0, 6)).toEqual([]);
  });

  it('hands out tasks by time, by tick, and every tick', () => {
    const index = createTaskIndex();
    index.place('cooldown', { by: 'time', at: 60_000 });
    index.place('backoff', { by: 'tick', at: 8 });
    index.place('real', { by: 'every' });
    index.place('stopped', { by: 'none' });
    expect(index.due(new Map(), 59_999, 7)).toEqual(['real']);
    expect(index.due(new Map(), 60_000, 7)).toEqual(['cooldown']);
    expect(index.due(new Map(), 60_000, 8)).toEqual(['backoff']);
    index.place('real', { by: 'every' });
    index.remove('real');
    expect(index.due(new Map(), 10 ** 9, 10 ** 6)).toEqual([]);
  });

  it('hands out a task filed by price with a time at that time too, once, whichever comes first', () => {
    const index = createTaskIndex();
    index.place('gated', { by: 'price', symbol: 'BTC/USDT', above: 99, below: 101, at: 60_000 });
    const btc = (price: number) => new Map([['BTC/USDT', price]]);
    expect(index.due(btc(100), 59_999, 1)).toEqual([]);
    expect(index.due(btc(100), 60_000, 2)).toEqual(['gated']);
    // Its price entries went stale with the time's: not handed out again.
    expect(index.due(btc(90), 60_000, 3)).toEqual([]);
    index.place('gated', { by: 'price', symbol: 'BTC/USDT', above: 99, below: 101, at: 120_000 });
    expect(index.due(btc(98), 60_000, 4)).toEqual(['gated']);
    expect(index.due(btc(100), 120_000, 5)).toEqual([]);
  });

  it('keeps its heaps small however often tasks are filed again', () => {
    const index = createTaskIndex();
    for (let round = 0; round < 200; round += 1) {
      for (let t = 0; t < 100; t += 1) index.place(`t${t}`, { by: 'price', symbol: 'BTC/USDT', above: round, below: 1e9 - round });
      index.due(new Map([['BTC/USDT', 5e8]]), 0, round);
      expect(index.entries()).toBeLessThanOrEqual(4 * 100 + 1024 + 200);
    }
    expect(index.size()).toBe(100);
    // Every task is still handed out once when the price finally moves.
    expect(index.due(new Map([['BTC/USDT', 1e10]]), 0, 999).sort()).toHaveLength(100);
  });
});
