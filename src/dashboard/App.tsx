import { LinearProgress } from '@mui/material';
import { Suspense, useMemo, type ComponentType } from 'react';
import { AdminContext, AdminUI, CustomRoutes, Notification, localStorageStore, type I18nProvider, type Store } from 'react-admin';
import { QueryClient } from '@tanstack/react-query';
import { Route } from 'react-router-dom';
import { NOTIFICATION_TIMEOUT_MS } from '../api/defaults';
import { authProvider as defaultAuthProvider } from '../authProvider/authProvider';
import { http } from '../authProvider/client';
import { GuestOnly, Protected } from '../authProvider/guards';
import { createDataProvider, type AppDataProvider } from '../dataProvider/dataProvider';
import { addMessages } from '../i18n/i18nProvider';
import { admin, operatorConsole } from './admin';
import { article } from './article';
import { auth } from './auth';
import { backtest } from './backtest';
import { provideAreaTexts, type Domain } from './domain';
import { exchange } from './exchange';
import { HomePage, home } from './home';
import { provideEmbeds } from './kit/embeds';
import { retryTransient } from './kit/retry';
import { appLayout } from './layout/AppLayout';
import { AuthLayout } from './layout/AuthLayout';
import { NotFound } from './layout/NotFound';
import { themeFor, type ThemeMode } from './layout/theme';
import { useCurrentLocale, usePriceColors } from './layout/usePriceColors';
import { notifyChannels } from './notifyChannels';
import { notify } from './notify';
import { profile } from './profile';
import { returns } from './returns';
import { strategy } from './strategy';
import { trade } from './trade';
import { wallet } from './wallet';

/** The dashboard's areas: each brings its routes, menu entries and texts. */
export const domains: readonly Domain[] = [home, trade, strategy, backtest, exchange, wallet, profile, notifyChannels, article, returns, notify, auth, admin];

/** Protected routes of spec section 2, at their exact paths, inside the main layout (`/` is react-admin's dashboard slot: the home page). */
export const protectedRoutes = domains.flatMap((domain) => domain.routes ?? []);
/** Guest-only routes (requiresGuest), in the separate auth layout. */
export const guestRoutes = domains.flatMap((domain) => domain.guestRoutes ?? []);

// The guest pages' and the menus' texts; the signed-in areas' load with their first page (domain.ts lazyPage).
for (const domain of domains) if (domain.messages) addMessages(domain.messages);
// The signed-in areas' texts, a chunk loaded with the first signed-in page (domain.ts lazyPage).
provideAreaTexts(() => import('./areaTexts').then((module) => module.addAreaTexts()));
// The parts an area shows in another's pages (kit/embeds.ts).
for (const domain of domains) if (domain.embeds) provideEmbeds(domain.embeds);
/** What every layout mounts for the areas (the wizard's draft reset). */
const watchers = domains.flatMap((domain) => domain.watchers ?? []);
const AppLayout = appLayout(
  domains.flatMap((domain) => domain.menu ?? []),
  watchers,
  domains.flatMap((domain) => domain.appBar ?? []),
);

/** A page's own code loads on its first visit (domain.ts lazyPage): a progress bar meanwhile. */
const page = (Component: ComponentType) => (
  <Suspense fallback={<LinearProgress data-state="page-loading" sx={{ m: 2 }} />}>
    <Component />
  </Suspense>
);
const Home = () => page(HomePage);

/** Below the app bar (56 px on a phone, 48 px from the tablet width up), never over its title, back and menu buttons. */
const AppNotification = () => (
  <Notification autoHideDuration={NOTIFICATION_TIMEOUT_MS} anchorOrigin={{ vertical: 'top', horizontal: 'center' }} sx={(theme) => ({ top: 64, [theme.breakpoints.up('sm')]: { top: 56 } })} />
);

/** The light and dark themes in the language's fonts and the user's price colours (红涨绿跌 / 绿涨红跌). */
const useThemes = () => {
  const locale = useCurrentLocale();
  const scheme = usePriceColors();
  return useMemo(() => ({ light: themeFor(locale, 'light', scheme), dark: themeFor(locale, 'dark', scheme) }), [locale, scheme]);
};

/** The light / dark choice under its own localStorage key: react-admin's store is emptied on logout, the choice is not. */
const THEME_MODE_KEY = 'themeMode';
const storedThemeMode = (): ThemeMode | null => {
  try {
    const value = globalThis.localStorage?.getItem(THEME_MODE_KEY);
    return value === 'dark' || value === 'light' ? value : null;
  } catch {
    return null;
  }
};
const storeThemeMode = (value: unknown) => {
  try {
    if (value === 'dark' || value === 'light') globalThis.localStorage?.setItem(THEME_MODE_KEY, value);
  } catch {
    // Storage unavailable: the choice lasts for the page.
  }
};

/**
 * The route table and the operator console (by role), as one constant: <AdminUI> re-reads its children
 * whenever they change, and a function child makes it resolve them again (a loading screen), so they
 * must not be rebuilt when the app re-renders (a language switch changes the theme).
 */
const adminChildren = [
  <CustomRoutes key="guest" noLayout>
    {guestRoutes.map(({ path, Component }) => (
      <Route
        key={path}
        path={path}
        element={
          <GuestOnly>
            <AuthLayout watchers={watchers}>
              <Component />
            </AuthLayout>
          </GuestOnly>
        }
      />
    ))}
  </CustomRoutes>,
  <CustomRoutes key="protected">
    {protectedRoutes.map(({ path, Component }) => (
      <Route
        key={path}
        path={path}
        element={
          <Protected>{page(Component)}</Protected>
        }
      />
    ))}
  </CustomRoutes>,
  operatorConsole,
];

/** The page's data provider: the user API and the console's resources over the page's HTTP client (its session and locale). */
const defaultDataProvider = createDataProvider(http);

export interface AppProps {
  i18nProvider: I18nProvider;
  dataProvider?: AppDataProvider;
  authProvider?: typeof defaultAuthProvider;
}

/**
 * react-admin's store, told the product's locale: react-admin remembers the
 * locale in its own store too and would switch to that one on start, while
 * the choice that counts is the one under `locale` (spec section 9).
 */
const useStore = (i18nProvider: I18nProvider) =>
  useMemo(() => {
    const store = localStorageStore();
    const seed = () => {
      store.setItem('locale', i18nProvider.getLocale());
      const mode = storedThemeMode();
      if (mode) store.setItem('theme', mode);
    };
    seed();
    const kept: Store = {
      ...store,
      setItem: (key, value) => {
        if (key === 'theme') storeThemeMode(value);
        store.setItem(key, value);
      },
      reset: () => {
        store.reset();
        seed();
      },
    };
    return kept;
  }, [i18nProvider]);

/**
 * react-admin's query client: a failed read is asked again only when its
 * answer was lost (kit/retry.ts), and who the user is (`['auth', ...]`: the
 * identity and the role) is not asked again at all: a guest has no identity,
 * and a logged-in user's failure is handled by the HTTP client's own refresh
 * and retry.
 */
const useAppQueryClient = () =>
  useMemo(() => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: retryTransient } } });
    client.setQueryDefaults(['auth'], { retry: false });
    return client;
  }, []);

const themeProps = ({ light, dark }: ReturnType<typeof useThemes>) => ({ theme: light, lightTheme: light, darkTheme: dark });

/**
 * Composition only: providers, layouts and the areas' routes. react-admin's <Admin> is these two
 * parts plus a default English i18nProvider (polyglot) the product never uses, so the first load
 * leaves it out.
 */
export const App = ({ i18nProvider, dataProvider = defaultDataProvider, authProvider = defaultAuthProvider }: AppProps) => (
  <AdminContext
    dataProvider={dataProvider}
    authProvider={authProvider}
    i18nProvider={i18nProvider}
    store={useStore(i18nProvider)}
    queryClient={useAppQueryClient()}
    {...themeProps(useThemes())}
  >
    <AdminUI title="Quant Trader" layout={AppLayout} dashboard={Home} catchAll={NotFound} loginPage={false} notification={AppNotification} disableTelemetry>
      {adminChildren}
    </AdminUI>
  </AdminContext>
);
