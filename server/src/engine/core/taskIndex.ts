import { Heap } from 'heap-js';

/**
 * Which tasks a tick must look at, so that a tick costs what the tasks whose
 * threshold the price crossed cost, not what all tasks cost (design: 10 000
 * tasks, one tick a second). A task is filed in one of four ways:
 * - by price: an open cycle's quiet interval (decide.ts quietBounds), in two
 *   heaps per symbol: due when the price falls to `above` or rises to `below`,
 *   or, with `at`, also at that market time (a signal gate read again when
 *   the next minute closes), whichever comes first;
 * - by time: a cooldown's end, a retry after a refusal, a fuel re-check
 *   (market milliseconds);
 * - by tick: a backoff after failures (counted in ticks);
 * - every tick: a real account's task (its own prices), a pending order, a
 *   task about to open a cycle, one whose interval is empty.
 * Filing a task again (or removing it) makes its older entries stale; stale
 * entries are dropped as they surface.
 */
export type Placement =
  | { by: 'price'; symbol: string; above: number; below: number; at?: number }
  | { by: 'time'; at: number }
  | { by: 'tick'; at: number }
  | { by: 'every' }
  | { by: 'none' };

interface Entry {
  id: string;
  version: number;
  key: number;
}

const byKeyAscending = (a: Entry, b: Entry) => a.key - b.key;
const byKeyDescending = (a: Entry, b: Entry) => b.key - a.key;

export const createTaskIndex = () => {
  const versions = new Map<string, number>();
  /** Per symbol: lows (max-heap of `above`: due when price <= it) and highs (min-heap of `below`: due when price >= it). */
  const symbols = new Map<string, { lows: Heap<Entry>; highs: Heap<Entry> }>();
  const times = new Heap<Entry>(byKeyAscending);
  const ticks = new Heap<Entry>(byKeyAscending);
  const every = new Set<string>();

  const heapsOf = (symbol: string) => {
    let heaps = symbols.get(symbol);
    if (!heaps) {
      heaps = { lows: new Heap<Entry>(byKeyDescending), highs: new Heap<Entry>(byKeyAscending) };
      symbols.set(symbol, heaps);
    }
    return heaps;
  };

  /** Pops every current entry the condition says is due. */
  const drain = (heap: Heap<Entry>, isDue: (key: number) => boolean, into: Set<string>) => {
    for (let top = heap.peek(); top && (versions.get(top.id) !== top.version || isDue(top.key)); top = heap.peek()) {
      heap.pop();
      if (versions.get(top.id) === top.version) into.add(top.id);
    }
  };

  const entries = () => {
    let held = times.size() + ticks.size();
    for (const heaps of symbols.values()) held += heaps.lows.size() + heaps.highs.size();
    return held;
  };

  /** Stale entries deep in a heap only leave when they surface: rebuild the heaps when they outnumber the tasks. */
  const compactWhenStale = () => {
    if (entries() <= 4 * versions.size + 1024) return;
    const live = (entry: Entry) => versions.get(entry.id) === entry.version;
    const rebuild = (heap: Heap<Entry>) => {
      const kept = heap.toArray().filter(live);
      heap.clear();
      heap.addAll(kept);
    };
    rebuild(times);
    rebuild(ticks);
    for (const heaps of symbols.values()) {
      rebuild(heaps.lows);
      rebuild(heaps.highs);
    }
  };

  return {
    /** Files a task anew (its earlier entries go stale). */
    place(id: string, placement: Placement) {
      const version = (versions.get(id) ?? 0) + 1;
      versions.set(id, version);
      every.delete(id);
      switch (placement.by) {
        case 'price': {
          const heaps = heapsOf(placement.symbol);
          heaps.lows.push({ id, version, key: placement.above });
          heaps.highs.push({ id, version, key: placement.below });
          if (placement.at !== undefined) times.push({ id, version, key: placement.at });
          break;
        }
        case 'time':
          times.push({ id, version, key: placement.at });
          break;
        case 'tick':
          ticks.push({ id, version, key: placement.at });
          break;
        case 'every':
          every.add(id);
          break;
        case 'none':
          break;
      }
    },
    remove(id: string) {
      versions.delete(id);
      every.delete(id);
    },
    /**
     * The tasks due now: prices per symbol (a missing symbol's tasks wait),
     * the market time and the tick. Due tasks leave the index: the caller files
     * each again after its turn.
     */
    due(prices: ReadonlyMap<string, number>, now: number, tick: number): string[] {
      const due = new Set<string>(every);
      for (const [symbol, heaps] of symbols) {
        const price = prices.get(symbol);
        if (price === undefined) continue;
        drain(heaps.lows, (above) => price <= above, due);
        drain(heaps.highs, (below) => price >= below, due);
      }
      drain(times, (at) => at <= now, due);
      drain(ticks, (at) => at <= tick, due);
      // A due task's other entries are stale from here on.
      for (const id of due) versions.set(id, (versions.get(id) ?? 0) + 1);
      every.clear();
      compactWhenStale();
      return [...due];
    },
    /** Tasks filed. */
    size: () => versions.size,
    /** Heap entries held, stale ones included. */
    entries,
  };
};

export type TaskIndex = ReturnType<typeof createTaskIndex>;
