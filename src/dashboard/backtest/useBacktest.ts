import { useCallback, useEffect, useRef, useState } from 'react';
import { useDataProvider } from 'react-admin';
import type { BacktestJob, BacktestRequest } from '../../api/backtest';
import type { AppDataProvider } from '../../dataProvider/dataProvider';

const POLL_MS = 500;
const ACTIVE = ['queued', 'loading', 'running'];

export const isActive = (job: BacktestJob | null) => job !== null && ACTIVE.includes(job.status);

/**
 * One backtest at a time: start it, follow its progress until it ends, or
 * stop it. A refusal of the request itself is `error`; a run that failed
 * later carries its error in `job.error`.
 */
export const useBacktest = () => {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [job, setJob] = useState<BacktestJob | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [starting, setStarting] = useState(false);
  /** The run being followed; a newer start or the component going away stops following it. */
  const following = useRef<{ id: string; abort: AbortController } | null>(null);

  const stopFollowing = () => {
    following.current?.abort.abort();
    following.current = null;
  };
  useEffect(() => stopFollowing, []);

  const follow = useCallback(
    async (first: BacktestJob) => {
      stopFollowing();
      setJob(first);
      if (!isActive(first)) return;
      const abort = new AbortController();
      following.current = { id: first.id, abort };
      let current = first;
      while (isActive(current) && !abort.signal.aborted) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        if (abort.signal.aborted) return;
        try {
          current = await dataProvider.backtestRun(first.id, abort.signal);
        } catch (caught) {
          if (abort.signal.aborted) return;
          setError(caught);
          return;
        }
        if (!abort.signal.aborted) setJob(current);
      }
    },
    [dataProvider],
  );

  const start = useCallback(
    async (request: BacktestRequest) => {
      stopFollowing();
      setError(null);
      setStarting(true);
      try {
        const started = await dataProvider.backtestStart(request);
        void follow(started);
      } catch (caught) {
        setError(caught);
      } finally {
        setStarting(false);
      }
    },
    [dataProvider, follow],
  );

  const cancel = useCallback(async () => {
    const id = following.current?.id;
    if (!id) return;
    stopFollowing();
    try {
      setJob(await dataProvider.backtestCancel(id));
    } catch (caught) {
      setError(caught);
    }
  }, [dataProvider]);

  return { job, error, busy: starting || isActive(job), start, cancel };
};
