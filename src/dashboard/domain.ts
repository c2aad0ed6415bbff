import { lazy, type ComponentType, type ReactElement } from 'react';
import type { Messages } from '../i18n/i18nProvider';

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
}

/**
 * A page whose code loads on its first visit: a chunk of its own, so the login
 * page downloads none of the signed-in pages. App.tsx shows a progress bar
 * (Suspense) while it loads.
 */
export const lazyPage = <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): ComponentType =>
  lazy(() => Promise.all([loadAreaTexts(), load()]).then(([, module]) => ({ default: module[name] as ComponentType })));

let areaTexts: Promise<void> | undefined;
/** The signed-in areas' texts (areaTexts.ts), loaded once; a failed load is tried again by the next page. */
export const loadAreaTexts = (): Promise<void> =>
  (areaTexts ??= import('./areaTexts').then(
    (module) => module.addAreaTexts(),
    (error: unknown) => {
      areaTexts = undefined;
      throw error;
    },
  ));
