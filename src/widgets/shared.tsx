import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { isPriceColorScheme, type PriceColorScheme } from '../api/colors';
import { formatMoney, trend } from '../api/format';
import { priceColorsFor, subscribePriceColors } from '../i18n/priceColors';
import type { LocaleCode } from '../api/types';
import type { ApiError } from '../dataProvider/ApiError';
import { createWidgetClient, loginUrl, type WidgetClient } from './client';
import { createTranslator, errorText, resolveLocale, type Translate } from './i18n';
import { widgetCss } from './styles';

/**
 * The widgets' events, as r2wc event props: r2wc names the event after the
 * prop (`onQt-task-click` -> `qt-task-click`) and dispatches it from the
 * element with these options. `qt-task-click` can be cancelled to stop the
 * navigation to the task's page.
 */
export const WIDGET_EVENTS = {
  'onQt-task-click': { bubbles: true, composed: true, cancelable: true },
  'onQt-session-expired': { bubbles: true, composed: true },
} as const;

export interface WidgetEventProps {
  'onQt-task-click'?: ((detail: { id: string }) => unknown) | undefined;
  'onQt-session-expired'?: ((detail?: undefined) => unknown) | undefined;
}

/** Attributes every widget takes (as React props, camelCase), and its events. */
export interface WidgetProps extends WidgetEventProps {
  apiBase?: string | undefined;
  locale?: string | undefined;
  theme?: string | undefined;
  /** 'red-up' (红涨绿跌) or 'green-up' (绿涨红跌); absent: the dashboard's setting on this origin, else the language's default. */
  colors?: string | undefined;
  token?: string | undefined;
  /** Seconds between live refreshes (default 30; 0 = no refresh). */
  refresh?: number | string | undefined;
  dashboardUrl?: string | undefined;
  /** The element's shadow root, which r2wc passes; absent when rendered as a plain React component. */
  container?: ShadowRoot | HTMLElement | undefined;
}

/**
 * Emits a `qt-*` event through its event prop. False when a listener called
 * preventDefault (r2wc does not hand the event back: it is caught on its way
 * past the element) or when a React caller's handler returned false.
 */
export const emit = <K extends keyof WidgetEventProps>(props: WidgetProps, name: K, ...detail: Parameters<NonNullable<WidgetEventProps[K]>>): boolean => {
  const handler = props[name] as ((...args: unknown[]) => unknown) | undefined;
  if (!handler) return true;
  const host = typeof ShadowRoot !== 'undefined' && props.container instanceof ShadowRoot ? props.container.host : undefined;
  const type = name.slice(2).toLowerCase();
  let event: Event | undefined;
  const seen = (e: Event) => {
    event = e;
  };
  host?.addEventListener(type, seen, { capture: true, once: true });
  try {
    return handler(...detail) !== false && !event?.defaultPrevented;
  } finally {
    host?.removeEventListener(type, seen, { capture: true });
  }
};

export const DEFAULT_REFRESH_SECONDS = 30;

type Status = 'loading' | 'ready' | 'error' | 'loggedOut';

/**
 * Why a widget shows no data, when it can tell: `origin`, the API is not open
 * to this page's origin (no grant for it, or the token's grant is for another
 * site); `revoked`, the token's grant was revoked; `offline`, the API cannot
 * be reached at all. Null for any other failure (its own localized text).
 */
export type FailureCause = 'origin' | 'revoked' | 'offline' | null;

const reasonOf = (error: unknown): unknown => ((error as ApiError | undefined)?.data as { reason?: unknown } | null | undefined)?.reason;

export interface WidgetState<T> {
  status: Status;
  data: T | undefined;
  error: unknown;
  cause: FailureCause;
  retry: () => void;
  t: Translate;
  locale: LocaleCode;
}

/**
 * Widgets on one page that share a session (the same API base and token, or
 * the dashboard's own session) learn at once when one of them sees it end:
 * they show the logged-out state without waiting for their next refresh,
 * and only the widget that saw it emits `qt-session-expired`.
 */
const sessionEndedListeners = new Set<(scope: string) => void>();
const sessionScope = (props: WidgetProps) => `${(props.apiBase ?? '').replace(/\/+$/, '')}|${props.token ?? ''}`;

const refreshMs = (value: WidgetProps['refresh']): number => {
  const seconds = value === undefined || value === '' ? DEFAULT_REFRESH_SECONDS : Number(value);
  return Number.isFinite(seconds) && seconds > 0 ? Math.max(seconds, 1) * 1000 : 0;
};

/** Loads a widget's data with the shared client, refreshes it live, and tracks the four states. */
export const useWidgetData = <T,>(props: WidgetProps, load: (client: WidgetClient, signal: AbortSignal) => Promise<T>, key = ''): WidgetState<T> => {
  const locale = resolveLocale(props.locale);
  const t = useMemo(() => createTranslator(locale), [locale]);
  const latest = useRef(props);
  latest.current = props;
  const loadRef = useRef(load);
  loadRef.current = load;
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ status: Status; data: T | undefined; error: unknown; cause: FailureCause }>({
    status: 'loading',
    data: undefined,
    error: undefined,
    cause: null,
  });

  const client = useMemo(
    () =>
      createWidgetClient({
        apiBase: props.apiBase,
        token: props.token,
        locale,
      }),
    [props.apiBase, props.token, locale],
  );
  const interval = refreshMs(props.refresh);
  const scope = sessionScope(props);
  /** Set when another widget of this session saw it end; cleared when the attributes give a new client. */
  const ended = useRef(false);
  /** The session scope this widget last loaded data for: losing its tokens later is the session's end. */
  const loadedFor = useRef<string | undefined>(undefined);

  useEffect(() => {
    ended.current = false;
    const onEnded = (endedScope: string) => {
      if (endedScope !== scope) return;
      ended.current = true;
      setState({ status: 'loggedOut', data: undefined, error: undefined, cause: null });
    };
    sessionEndedListeners.add(onEnded);
    return () => {
      sessionEndedListeners.delete(onEnded);
    };
  }, [client, scope]);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let first = true;
    /** The token's grant was revoked: nothing more is asked with it (new attributes give a new client and start again). */
    let revoked = false;
    /** Widgets of one session often ask at the same moment: only the first to hear the news tells the others and the page. */
    const sessionEnded = () => {
      loadedFor.current = undefined;
      if (ended.current) return;
      for (const listener of [...sessionEndedListeners]) listener(scope);
      emit(latest.current, 'onQt-session-expired');
    };
    const run = async () => {
      if (revoked) return;
      if (ended.current || !client.hasSession()) {
        // Its tokens are gone since this widget loaded with them: a call of this session found it ended (maybe one cut short by an attribute change, or the dashboard's logout on this page).
        if (loadedFor.current === scope) sessionEnded();
        setState({ status: 'loggedOut', data: undefined, error: undefined, cause: null });
      } else {
        if (first) setState((s) => ({ ...s, status: 'loading', error: undefined, cause: null }));
        try {
          const data = await loadRef.current(client, controller.signal);
          if (controller.signal.aborted) return;
          loadedFor.current = scope;
          setState({ status: 'ready', data, error: undefined, cause: null });
        } catch (error) {
          const kind = (error as ApiError).kind;
          if (kind === 'unauthorized' && reasonOf(error) === 'revoked') {
            // The user revoked this site's grant: said as such, not as a login to make.
            revoked = true;
            if (!controller.signal.aborted) setState({ status: 'error', data: undefined, error, cause: 'revoked' });
            return;
          }
          // The session's end is news even when this load was cut short (the attributes changed meanwhile).
          if (kind === 'unauthorized') {
            sessionEnded();
            if (!controller.signal.aborted) setState({ status: 'loggedOut', data: undefined, error, cause: null });
          } else if (!controller.signal.aborted) {
            let cause: FailureCause = null;
            if (kind === 'business' && reasonOf(error) === 'origin') cause = 'origin';
            // No answer the page may read: the API refused this origin if it is reachable, else it is offline.
            else if (kind === 'network') cause = (await client.apiReachable()) ? 'origin' : 'offline';
            if (controller.signal.aborted) return;
            // A failed live refresh keeps the figures already shown.
            setState((s) => (first || s.status !== 'ready' ? { status: 'error', data: undefined, error, cause } : s));
          }
        }
      }
      if (controller.signal.aborted) return;
      first = false;
      if (interval > 0) timer = setTimeout(() => void run(), interval);
    };
    void run();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [client, interval, attempt, key, scope]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry, t, locale };
};

/** The widget's root: its styles, theme and language. */
export const Frame = ({ props, name, title, children }: { props: WidgetProps; name: string; title: string; children: ReactNode }) => {
  const locale = resolveLocale(props.locale);
  // Follows the dashboard's setting live (another tab, or the dashboard on this page).
  const stored = useSyncExternalStore(subscribePriceColors, () => priceColorsFor(locale), () => priceColorsFor(locale));
  const colors = isPriceColorScheme(props.colors) ? props.colors : stored;
  return (
    <div className="qt" part="root" data-widget={name} data-theme={props.theme === 'dark' ? 'dark' : 'light'} data-colors={colors} lang={locale}>
      <style>{widgetCss}</style>
      <h2>{title}</h2>
      {children}
    </div>
  );
};

/** Loading, error (with retry) and logged-out states; null when the data is there. */
export const StateView = ({ state, props }: { state: WidgetState<unknown>; props: WidgetProps }) => {
  const { t } = state;
  if (state.status === 'loading') {
    return (
      <p className="state" role="status" aria-busy="true">
        {t('widgets.loading')}
      </p>
    );
  }
  if (state.status === 'error') {
    const { cause } = state;
    const text =
      cause === 'origin'
        ? t('widgets.originRefused', { origin: typeof location === 'undefined' ? '' : location.origin })
        : cause === 'revoked'
          ? t('widgets.grantRevoked')
          : errorText(state.error, t);
    return (
      <div className="state error" role="alert" data-cause={cause ?? 'other'}>
        <p>{text}</p>
        {/* Trying again cannot help a site that is not (or no longer) allowed. */}
        {cause !== 'origin' && cause !== 'revoked' && (
          <button type="button" className="action" onClick={state.retry}>
            {t('widgets.retry')}
          </button>
        )}
      </div>
    );
  }
  if (state.status === 'loggedOut') {
    return (
      <div className="state" data-state="logged-out">
        <p>{t('widgets.loggedOut')}</p>
        <a className="action" href={loginUrl(props.dashboardUrl, props.apiBase)} target="_top">
          {t('widgets.login')}
        </a>
      </div>
    );
  }
  return null;
};

/** Money as the dashboard shows it (src/api/format.ts): to the cent, from the decimal string itself. */
export const formatAmount = (value: string | null | undefined, locale: LocaleCode, signed = false): string => formatMoney(value, locale, { signed });

/** A figure's class: `up` or `down` (coloured by the price colour scheme), plain when flat. */
export const profitClass = (value: string | null | undefined) => {
  const direction = trend(value);
  return direction === 'flat' ? 'num' : `num ${direction}`;
};

/** The `colors` attribute ('red-up' or 'green-up'), else the dashboard's stored setting on this origin, else the language's default. */
export const resolvePriceColors = (attribute: string | undefined, locale: LocaleCode): PriceColorScheme =>
  isPriceColorScheme(attribute) ? attribute : priceColorsFor(locale);
