/**
 * Whole exchanges paused, shared by every client of the process. Binance
 * counts request weight and bans per IP address: a 429's Retry-After or a
 * 418 ban concerns every account this server trades for, and asking during
 * a ban makes it longer. A pause holds back that exchange only. A pause of
 * reads only keeps the rest of a weight budget for orders.
 */
export interface ExchangePauses {
  /** When the exchange may be asked again (ms since the epoch) for a read or an order; undefined when it is not paused. */
  until(exchangeId: string, call?: 'read' | 'order'): number | undefined;
  /** Nothing (or no read) goes to the exchange before this time; a later pause wins over an earlier one. */
  pause(exchangeId: string, untilMs: number, options?: { readsOnly?: boolean }): void;
}

export const createExchangePauses = (now: () => number = Date.now): ExchangePauses => {
  const all = new Map<string, number>();
  const reads = new Map<string, number>();
  const current = (paused: Map<string, number>, exchangeId: string) => {
    const until = paused.get(exchangeId);
    if (until === undefined || until > now()) return until;
    paused.delete(exchangeId);
    return undefined;
  };
  return {
    until(exchangeId, call = 'read') {
      const everything = current(all, exchangeId);
      const readsOnly = call === 'read' ? current(reads, exchangeId) : undefined;
      return everything === undefined || readsOnly === undefined ? (everything ?? readsOnly) : Math.max(everything, readsOnly);
    },
    pause(exchangeId, untilMs, { readsOnly = false } = {}) {
      const paused = readsOnly ? reads : all;
      if (untilMs > (paused.get(exchangeId) ?? 0)) paused.set(exchangeId, untilMs);
    },
  };
};

/** The process's pauses: every client shares them unless a test gives its own. */
export const processPauses = createExchangePauses();
