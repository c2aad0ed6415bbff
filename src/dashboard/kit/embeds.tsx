import { createElement, lazy, Suspense, type ComponentType } from 'react';
import type { VariantResult } from '../../api/backtest';
import type { ProfitOverview } from '../../api/member';
import type { StrategySettings } from '../../api/strategy';

/**
 * The parts of one area that show inside another area's pages. No area
 * imports another: the area that owns a part hands a loader of it in its
 * index.ts (Domain.embeds), App.tsx gives them all here (provideEmbeds), and
 * a page names the parts it shows in its lazyPage, so they load with its code
 * (loadEmbeds) and render at once, in their own chunks as before.
 */

/** What a backtest would run with, taken from the page around it (the trade wizard's draft). */
export interface BacktestDefaults {
  symbol?: string;
  firstOrderAmount?: string;
  firstOrderMultiple?: boolean;
  cycleCount?: number;
  /** The exchange (ccxt id) of the account a task would run on. */
  exchange?: string | null;
}

export interface BacktestLauncherProps {
  /** Null (a template still being typed) keeps the panel closed, with the reason. */
  settings: StrategySettings | null;
  defaults?: BacktestDefaults;
  blockedReason?: string;
  /** "应用到策略" on a compared variant: where its settings go. */
  onApply?: (variant: VariantResult) => void;
}

export interface MonthPosterProps {
  /** The user's profit summary (the page asks it); the button waits for it. */
  summary: ProfitOverview | undefined;
  /** The user's place, named in the poster's title (the rank page). */
  rank?: number | null;
}

export interface Embeds {
  /** The backtest panel's entry (backtest area): in the strategy editor and the trade wizard. */
  BacktestLauncher: ComponentType<BacktestLauncherProps>;
  /** A task's returns, cycles and curve (returns area): on the task page. */
  TaskReturns: ComponentType<{ taskId: string }>;
  /** The user's total returns and curve (returns area): on the home page. */
  HomeReturns: ComponentType;
  /** The poster of the last 30 days' return (returns area): on the profit and rank pages. */
  MonthPosterButton: ComponentType<MonthPosterProps>;
}

export type EmbedName = keyof Embeds;
export type EmbedLoaders = { [Name in EmbedName]?: () => Promise<Embeds[Name]> };

const loaders: EmbedLoaders = {};
const loaded: Partial<Embeds> = {};
const loading = new Map<EmbedName, Promise<void>>();

/** App.tsx hands over the areas' loaders, once, before any page renders. */
export const provideEmbeds = (given: EmbedLoaders): void => {
  Object.assign(loaders, given);
};

const loadOne = (name: EmbedName): Promise<void> => {
  const load = loaders[name];
  if (!load || loaded[name]) return Promise.resolve();
  let pending = loading.get(name);
  if (!pending) {
    pending = load().then(
      (component) => {
        (loaded as Record<EmbedName, unknown>)[name] = component;
      },
      // A failed chunk is asked again by the next page, as a page's own code is.
      (error: unknown) => {
        loading.delete(name);
        throw error;
      },
    );
    loading.set(name, pending);
  }
  return pending;
};

/** Loads the named parts (a page's lazyPage waits for them with its own code). */
export const loadEmbeds = (names: readonly EmbedName[]): Promise<void> => Promise.all(names.map(loadOne)).then(() => undefined);

/**
 * The stand-in a page renders: the part itself once loaded (always, for a page
 * that named it), else it loads it now and shows nothing meanwhile.
 */
const slot = <Name extends EmbedName>(name: Name): Embeds[Name] => {
  const Later = lazy(() => loadOne(name).then(() => ({ default: (loaded[name] ?? (() => null)) as ComponentType<object> })));
  const Slot = (props: object) => {
    const Loaded = loaded[name] as ComponentType<object> | undefined;
    if (Loaded) return createElement(Loaded, props);
    if (!loaders[name]) return null;
    return createElement(Suspense, { fallback: null }, createElement(Later, props));
  };
  Slot.displayName = `Embed(${name})`;
  return Slot as Embeds[Name];
};

export const BacktestLauncher = slot('BacktestLauncher');
export const TaskReturns = slot('TaskReturns');
export const HomeReturns = slot('HomeReturns');
export const MonthPosterButton = slot('MonthPosterButton');
