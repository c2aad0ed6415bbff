import KeyIcon from '@mui/icons-material/Key';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { ErrorCode } from '../../api/errors';
import type { PasskeyOptions } from '../../api/security';
import { isApiError } from '../../dataProvider/ApiError';
import { useServerErrors } from './forms';
import { assertPasskey, kindsOf, passkeyFactor, passkeyOptionsOf } from './passkey';

/** The user closed the step-up dialog: the action was not sent again (nothing to report). */
export class StepUpCancelled extends Error {
  constructor() {
    super('second factor not given');
    this.name = 'StepUpCancelled';
  }
}
export const isStepUpCancelled = (error: unknown): error is StepUpCancelled => error instanceof StepUpCancelled;

interface Asking {
  resolve: (code: string) => void;
  reject: (error: unknown) => void;
  error: string | null;
  /** The factors the user has on (a code field for 'totp'). */
  kinds: string[];
  /** The passkey challenge of the refused call, when the user has a passkey. */
  passkey: PasskeyOptions | null;
}

const CodeDialog = ({ asking, onDone }: { asking: Asking; onDone: () => void }) => {
  const translate = useTranslate();
  const [code, setCode] = useState('');
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const valid = /^[0-9]{6}$/.test(code);
  const withTotp = asking.kinds.includes('totp') || !asking.passkey;
  const usePasskey = async () => {
    setPasskeyError(null);
    try {
      asking.resolve(passkeyFactor(await assertPasskey(asking.passkey!)));
    } catch {
      // Cancelled or refused by the browser: the user may try again or type a code.
      setPasskeyError(translate('passkey.failed'));
    }
  };
  const cancel = () => {
    onDone();
    asking.reject(new StepUpCancelled());
  };
  return (
    <Dialog open onClose={cancel} fullWidth maxWidth="xs" data-step-up>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) asking.resolve(code);
        }}
      >
        <DialogTitle>{translate(withTotp ? 'stepUp.title' : 'stepUp.passkeyTitle')}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {translate(withTotp ? (asking.passkey ? 'stepUp.hintBoth' : 'stepUp.hint') : 'stepUp.passkeyHint')}
          </Typography>
          {(asking.error ?? passkeyError) && (
            <Alert severity="error" sx={{ mb: 2 }} role="alert">
              {passkeyError ?? asking.error}
            </Alert>
          )}
          {asking.passkey && (
            <Button fullWidth variant="outlined" startIcon={<KeyIcon />} onClick={() => void usePasskey()} sx={{ mb: withTotp ? 2 : 0 }} data-step-up-passkey>
              {translate('passkey.use')}
            </Button>
          )}
          {withTotp && <TextField
            autoFocus
            fullWidth
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
            label={translate('stepUp.code')}
            slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6, 'data-step-up-code': true } }}
          />}
        </DialogContent>
        <DialogActions>
          <Button onClick={cancel}>{translate('ra.action.cancel')}</Button>
          {withTotp && (
            <Button type="submit" variant="contained" disabled={!valid}>
              {translate('stepUp.confirm')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
};

/**
 * Step-up for a sensitive action (README "Second factors"): `run(action)`
 * sends it without a code; when the server answers 11100 (a second factor is
 * on) it asks for the authenticator code, or a passkey answering the
 * challenge the refusal carried, in a dialog and sends it again with it,
 * asking again after 11101 / 11103 (wrong or used). Render `dialog`.
 * Closing the dialog rejects with StepUpCancelled.
 */
export const useStepUp = (): { run: <T>(action: (secondFactor?: string) => Promise<T>) => Promise<T>; dialog: ReactNode } => {
  const [asking, setAsking] = useState<Asking | null>(null);
  const generation = useRef(0);
  const ask = (error: string | null, kinds: string[], passkey: PasskeyOptions | null) =>
    new Promise<string>((resolve, reject) => setAsking({ resolve, reject, error, kinds, passkey }));

  const run = useCallback(async <T,>(action: (secondFactor?: string) => Promise<T>): Promise<T> => {
    let required: unknown;
    try {
      return await action();
    } catch (error) {
      if (!isApiError(error) || error.code !== ErrorCode.SECOND_FACTOR_REQUIRED) throw error;
      required = error.data;
    }
    const kinds = kindsOf(required);
    let passkey = passkeyOptionsOf(required);
    let refusal: string | null = null;
    for (;;) {
      const code = await ask(refusal, kinds, passkey);
      try {
        const answer = await action(code);
        setAsking(null);
        return answer;
      } catch (error) {
        if (isApiError(error) && (error.code === ErrorCode.SECOND_FACTOR_INVALID || error.code === ErrorCode.PASSKEY_INVALID)) {
          refusal = error.message;
          generation.current += 1;
          // A passkey challenge is taken by its first answer: the call without a factor gives a fresh one.
          if (passkey) {
            try {
              await action();
            } catch (again) {
              passkey = isApiError(again) && again.code === ErrorCode.SECOND_FACTOR_REQUIRED ? passkeyOptionsOf(again.data) : null;
            }
          }
          continue;
        }
        setAsking(null);
        throw error;
      }
    }
  }, []);

  const dialog = asking ? <CodeDialog key={generation.current} asking={asking} onDone={() => setAsking(null)} /> : null;
  return { run, dialog };
};

export interface StepUpActionSteps<T, F> {
  /** The success notice, from the answer. */
  notice: (answer: T) => string;
  /** After the success notice: refresh what the action changed. */
  done?: (answer: T) => void;
  /** A refusal (a closed dialog is none): its result is what `perform` answers; default: the server's message as a notice. */
  failed?: (error: unknown) => F;
}

/**
 * A sensitive action in one call (useStepUp's `run`): sent with step-up, then
 * the success notice and `done`; a refusal goes to `failed`, a closed dialog
 * is silent. Render `dialog`.
 */
export const useStepUpAction = () => {
  const stepUp = useStepUp();
  const notify = useNotify();
  const serverErrors = useServerErrors();
  const perform = async <T, F = Record<string, string> | undefined>(
    call: (secondFactor?: string) => Promise<T>,
    steps: StepUpActionSteps<T, F>,
  ): Promise<F | undefined> => {
    let answer: T;
    try {
      answer = await stepUp.run(call);
    } catch (error) {
      if (isStepUpCancelled(error)) return undefined;
      return steps.failed ? steps.failed(error) : (serverErrors(error) as F | undefined);
    }
    notify(steps.notice(answer), { type: 'success' });
    steps.done?.(answer);
    return undefined;
  };
  return { perform, run: stepUp.run, dialog: stepUp.dialog };
};
