/**
 * Live updates of the bell and the inbox: the server's stream of the unread
 * count (Server-Sent Events, read through the one HTTP client so the bearer
 * token goes in a header and a 401 is cured by the shared refresh). Open only
 * while the page is visible: a browser gives an origin few connections, and a
 * hidden tab must not hold one. A broken stream is opened again after the
 * server's `retry`, then with backoff; a server that refuses it (an error
 * answer) leaves the bell to its poll.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createParser } from 'eventsource-parser';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useDataProvider } from 'react-admin';
import type { UnreadCount } from '../../api/notify';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { ApiError } from '../../dataProvider/ApiError';
import { UNREAD_REFRESH_MS, UNREAD_SLOW_REFRESH_MS, notifyKeys } from './api';

const MAX_BACKOFF_MS = 60_000;

/** Whether this page's stream is live: the bell and the inbox poll slowly then (a fallback only). */
let streamLive = false;
const liveListeners = new Set<() => void>();
const setStreamLive = (value: boolean) => {
  if (streamLive === value) return;
  streamLive = value;
  liveListeners.forEach((listener) => listener());
};
const useStreamLive = () =>
  useSyncExternalStore(
    (listener) => {
      liveListeners.add(listener);
      return () => liveListeners.delete(listener);
    },
    () => streamLive,
  );

/** How often the bell and the inbox poll: slowly while the stream is live. */
export const useNotifyPollMs = () => (useStreamLive() ? UNREAD_SLOW_REFRESH_MS : UNREAD_REFRESH_MS);

const usePageVisible = () => {
  const [visible, setVisible] = useState(() => document.visibilityState !== 'hidden');
  useEffect(() => {
    const update = () => setVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
};

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Follows the stream while `enabled` and the page is visible (the bell does, once per page). */
export const useLiveNotifications = (enabled: boolean): void => {
  const api = useDataProvider<AppDataProvider>();
  const client = useQueryClient();
  const visible = usePageVisible();
  const setLive = setStreamLive;

  useEffect(() => {
    if (!enabled || !visible) return;
    const controller = new AbortController();
    const { signal } = controller;
    const follow = async () => {
      let waitMs = 3_000;
      while (!signal.aborted) {
        try {
          const body = await api.notificationsStream(signal);
          waitMs = 3_000;
          const parser = createParser({
            onRetry: (ms) => {
              waitMs = ms;
            },
            onEvent: (event) => {
              if (event.event !== 'unread') return;
              setLive(true);
              const count = JSON.parse(event.data) as UnreadCount;
              const before = client.getQueryData<UnreadCount>(notifyKeys.unread);
              client.setQueryData(notifyKeys.unread, count);
              // The inbox shows the change too (a new event, or one read elsewhere).
              if (before?.count !== count.count) void client.invalidateQueries({ queryKey: [...notifyKeys.all, 'list'] });
            },
          });
          const reader = body.getReader();
          const decoder = new TextDecoder();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            parser.feed(decoder.decode(value, { stream: true }));
          }
        } catch (error) {
          if (signal.aborted) return;
          // Refused (an error answer, a session that ended): the poll goes on alone.
          if (error instanceof ApiError && (error.kind === 'business' || error.kind === 'unauthorized')) {
            setLive(false);
            return;
          }
          waitMs = Math.min(waitMs * 2, MAX_BACKOFF_MS);
        }
        setLive(false);
        await pause(waitMs, signal);
      }
    };
    void follow();
    return () => {
      controller.abort();
      setLive(false);
    };
  }, [api, client, enabled, visible]);
};
