import { lazy, type ComponentType, type ReactElement } from 'react';
import type { Messages } from '../i18n/i18nProvider';
import { loadEmbeds, type EmbedLoaders, type EmbedName } from './kit/embeds';

/** A page at its path (spec section 2), with the title key its frame shows. */
export interface AppRoute {
  path: string;
  titleKey: string;
  Component: ComponentType;
}

/**
 * Where a menu entry shows: one of the four tabs of the main layout (the
 * bottom bar on phones, the top of the side menu on desktop), the side menu's
 * further entries, or the operator console's group.
 */
export type MenuPlace = 'tab' | 'more' | 'operator';

export interface MenuEntry {
  to: string;
  labelKey: string;
  icon: ReactElement;
  place: MenuPlace;
  /** Position within its place (lower first). */
  order: number;
  /** Shown only to this role (the identity's permissions): the operator console's entries. */
  role?: string;
}

/**
 * What an area of the dashboard brings: its index.ts exports one, and App.tsx
 * composes them, as react-admin's demo spreads its resources.
 */
export interface Domain {
  /** Protected pages, inside the main layout. */
  routes?: readonly AppRoute[];
  /** Guest-only pages (requiresGuest), in the auth layout. */
  guestRoutes?: readonly AppRoute[];
  menu?: readonly MenuEntry[];
  /** Texts needed before any signed-in page loads (the guest pages, the menus); the others are in areaTexts.ts. */
  messages?: Messages;
  /** Mounted by every layout (the main one and the guest pages'): an area's watch over the route. */
  watchers?: readonly ComponentType[];
  /** Its parts in the main layout's app bar, before the display menu (the notifications' bell). */
  appBar?: readonly ComponentType[];
  /** Its parts that other areas' pages show (kit/embeds.ts): a loader each. */
  embeds?: EmbedLoaders;
}

/**
 * A page whose code loads on its first visit: a chunk of its own, so the login
 * page downloads none of the signed-in pages. App.tsx shows a progress bar
 * (Suspense) while it loads. `embeds`: the other areas' parts it shows, loaded
 * with it (kit/embeds.ts).
 */
export const lazyPage = <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string, embeds: readonly EmbedName[] = []): ComponentType =>
  lazy(() => Promise.all([loadAreaTexts(), loadEmbeds(embeds), load()]).then(([, , module]) => ({ default: module[name] as ComponentType })));

let addAreaTexts: () => Promise<void> = () => Promise.resolve();
/** App.tsx hands over how the signed-in areas' texts load (areaTexts.ts, a chunk of its own), as it composes the areas. */
export const provideAreaTexts = (load: () => Promise<void>): void => {
  addAreaTexts = load;
};

let areaTexts: Promise<void> | undefined;
/** The signed-in areas' texts (areaTexts.ts), loaded once; a failed load is tried again by the next page. */
export const loadAreaTexts = (): Promise<void> =>
  (areaTexts ??= addAreaTexts().catch((error: unknown) => {
    areaTexts = undefined;
    throw error;
  }));
