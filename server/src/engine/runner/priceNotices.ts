import type { PaperPrices } from '../../../../src/api/exchange';
import type { PaperPriceNotice } from '../store/journal';

/**
 * A live price source's state must hold this long before its paper accounts'
 * owners are told it changed: a source that flaps (down for seconds, back
 * for seconds) tells nothing; a real outage is told once when it has lasted
 * a minute, and its end once prices have flowed again for a minute.
 */
export const PRICE_NOTICE_HOLD_MS = 60_000;

interface SourceState {
  /** What the source does now, and since when (by the price sources' clock). */
  live: boolean;
  since: number;
  /** The fall back's start as the source reported it at this run's first sight. */
  fallbackSince: string | null;
  /** The last state that held for the hold time; null before one did. */
  settled: { fallbackSince: string | null } | null;
}

/**
 * Hysteresis over the live price sources of this process's paper accounts:
 * `observe` each source at every tick, then `due` answers the accounts whose
 * settled state differs from what their owners were last told (unknown after
 * a start: the journal's conditional write answers whether it changed).
 * `told` records what a committed tick told.
 */
export const createPriceNotices = (holdMs = PRICE_NOTICE_HOLD_MS) => {
  const sources = new Map<string, SourceState>();
  const toldOf = new Map<string, string | null>();

  return {
    observe(status: PaperPrices, at: number) {
      let state = sources.get(status.source);
      if (!state || state.live !== status.live) {
        state = { live: status.live, since: at, fallbackSince: status.live ? null : (status.fallbackSince ?? new Date(at).toISOString()), settled: state?.settled ?? null };
        sources.set(status.source, state);
      }
      if (at - state.since >= holdMs) state.settled = { fallbackSince: state.fallbackSince };
    },
    /** The notices due for these paper accounts (each with its source). */
    due(accounts: ReadonlyMap<string, string>): PaperPriceNotice[] {
      // An account this process no longer drives (its shard moved, its tasks ended): whoever drives it next asks the database again.
      for (const accountId of toldOf.keys()) if (!accounts.has(accountId)) toldOf.delete(accountId);
      const notices: PaperPriceNotice[] = [];
      for (const [accountId, source] of accounts) {
        const settled = sources.get(source)?.settled;
        if (!settled) continue;
        const told = toldOf.get(accountId);
        if (told !== undefined && (told === null) === (settled.fallbackSince === null)) continue;
        notices.push({ accountId, source, fallbackSince: settled.fallbackSince });
      }
      return notices;
    },
    told(notices: readonly PaperPriceNotice[]) {
      for (const notice of notices) toldOf.set(notice.accountId, notice.fallbackSince);
    },
  };
};

export type PriceNotices = ReturnType<typeof createPriceNotices>;
