/**
 * Whole exchanges paused, shared by every client of the process. Binance
 * counts request weight and bans per IP address: a 429's Retry-After or a
 * 418 ban concerns every account this server trades for, and asking during
 * a ban makes it longer. A pause holds back that exchange only.
 */
export interface ExchangePauses {
  /** When the exchange may be asked again (ms since the epoch); undefined when it is not paused. */
  until(exchangeId: string): number | undefined;
  /** Nothing goes to the exchange before this time (a later pause wins over an earlier one). */
  pause(exchangeId: string, untilMs: number): void;
}

export const createExchangePauses = (now: () => number = Date.now): ExchangePauses => {
  const paused = new Map<string, number>();
  return {
    until(exchangeId) {
      const until = paused.get(exchangeId);
      if (until === undefined || until > now()) return until;
      paused.delete(exchangeId);
      return undefined;
    },
    pause(exchangeId, untilMs) {
      if (untilMs > (paused.get(exchangeId) ?? 0)) paused.set(exchangeId, untilMs);
    },
  };
};

/** The process's pauses: every client shares them unless a test gives its own. */
export const processPauses = createExchangePauses();
