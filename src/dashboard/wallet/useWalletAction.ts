import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { newRequestId } from '../../api/signing';
import { isApiError } from '../../dataProvider/ApiError';
import { walletKeys } from './api';
import { errorMessage } from './walletText';
import { isStepUpCancelled, useStepUp } from '../kit/StepUp';

/**
 * The idempotency key of one intended action. The same request (same fields, the password aside)
 * keeps its key, so retrying after a lost answer cannot move the money twice; a success, or a
 * request with other fields, gets a new key.
 */
export const useIdempotencyKey = () => {
  const current = useRef<{ key: string; request: string } | null>(null);
  const keyFor = useCallback((request: unknown) => {
    const text = JSON.stringify(request);
    if (!current.current || current.current.request !== text) current.current = { key: newRequestId(), request: text };
    return current.current.key;
  }, []);
  const reset = useCallback(() => {
    current.current = null;
  }, []);
  return { keyFor, reset };
};

export interface WalletActionError {
  message: string;
  code: number | undefined;
}

/**
 * The core of every wallet change: runs one step-up-protected call at a time
 * (`pending` while in flight; a second run meanwhile answers null), keeps the
 * localized error of a refusal, and after a success runs `onSuccess` (its
 * refresh, its toast) before the call resolves.
 */
export const useWalletCall = <Answer = unknown>({ onSuccess }: { onSuccess: (answer: Answer) => unknown }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<WalletActionError | null>(null);
  /** The refusal of the last call, readable as soon as it resolves (the state above shows at the next render). */
  const lastRefusal = useRef<WalletActionError | null>(null);
  const inFlight = useRef(false);
  const stepUp = useStepUp();

  /** `call` gets the step-up code once the server asked for it. Resolves to the answer, or null when refused or cancelled. */
  const run = useCallback(
    async <T extends Answer>(call: (secondFactor?: string) => Promise<T>): Promise<T | null> => {
      if (inFlight.current) return null;
      inFlight.current = true;
      setPending(true);
      setError(null);
      lastRefusal.current = null;
      try {
        const answer = await stepUp.run(call);
        await onSuccess(answer);
        return answer;
      } catch (caught) {
        if (isStepUpCancelled(caught)) return null;
        lastRefusal.current = { message: errorMessage(caught, translate, locale), code: isApiError(caught) ? caught.code : undefined };
        setError(lastRefusal.current);
        return null;
      } finally {
        inFlight.current = false;
        setPending(false);
      }
    },
    [onSuccess, translate, locale, stepUp.run],
  );

  const clearError = useCallback(() => setError(null), []);
  /** `dialog`: the step-up dialog, rendered by the page. */
  return { run, pending, error, clearError, lastRefusal, dialog: stepUp.dialog };
};

/**
 * A money-moving submit: the core above with the request's idempotency key;
 * after a success it shows the toast and refreshes every wallet figure
 * (balances, lists, records).
 */
export const useWalletAction = <Payload extends { idempotencyKey: string }, Answer>(
  /** `secondFactor`: the step-up code, once the server asked for it (a withdrawal or transfer with a factor on). */
  call: (payload: Payload, secondFactor?: string) => Promise<Answer>,
  /** The toast of a success; a function picks it by the answer. */
  { successKey }: { successKey: string | ((answer: Answer) => string) },
) => {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { keyFor, reset } = useIdempotencyKey();
  const onSuccess = useCallback(
    (answer: Answer) => {
      reset();
      notify(translate(typeof successKey === 'function' ? successKey(answer) : successKey), { type: 'success' });
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
    },
    [reset, notify, translate, successKey, queryClient],
  );
  const { run, ...state } = useWalletCall<Answer>({ onSuccess });

  /** `identity`: the fields that make it the same request (default: all of them). Resolves to the answer, or null when refused. */
  const submit = useCallback(
    (request: Omit<Payload, 'idempotencyKey'>, identity: unknown = request): Promise<Answer | null> => {
      // The key is taken once the call starts: a submit refused as one already in flight leaves the key alone.
      let payload: Payload | undefined;
      return run((secondFactor) => call((payload ??= { ...request, idempotencyKey: keyFor(identity) } as Payload), secondFactor));
    },
    [call, keyFor, run],
  );

  return { submit, ...state };
};
