import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { ErrorCode } from '../../api/errors';
import { isApiError } from '../../dataProvider/ApiError';

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
}

const CodeDialog = ({ asking, onDone }: { asking: Asking; onDone: () => void }) => {
  const translate = useTranslate();
  const [code, setCode] = useState('');
  const valid = /^[0-9]{6}$/.test(code);
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
        <DialogTitle>{translate('stepUp.title')}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {translate('stepUp.hint')}
          </Typography>
          {asking.error && (
            <Alert severity="error" sx={{ mb: 2 }} role="alert">
              {asking.error}
            </Alert>
          )}
          <TextField
            autoFocus
            fullWidth
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
            label={translate('stepUp.code')}
            slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6, 'data-step-up-code': true } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={cancel}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!valid}>
            {translate('stepUp.confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

/**
 * Step-up for a sensitive action (README "Second factors"): `run(action)`
 * sends it without a code; when the server answers 11100 (a second factor is
 * on) it asks for the authenticator code in a dialog and sends it again with
 * the code, asking again after 11101 (wrong or used code). Render `dialog`.
 * Closing the dialog rejects with StepUpCancelled.
 */
export const useStepUp = (): { run: <T>(action: (secondFactor?: string) => Promise<T>) => Promise<T>; dialog: ReactNode } => {
  const [asking, setAsking] = useState<Asking | null>(null);
  const generation = useRef(0);
  const ask = (error: string | null) => new Promise<string>((resolve, reject) => setAsking({ resolve, reject, error }));

  const run = useCallback(async <T,>(action: (secondFactor?: string) => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      if (!isApiError(error) || error.code !== ErrorCode.SECOND_FACTOR_REQUIRED) throw error;
    }
    let refusal: string | null = null;
    for (;;) {
      const code = await ask(refusal);
      try {
        const answer = await action(code);
        setAsking(null);
        return answer;
      } catch (error) {
        if (isApiError(error) && error.code === ErrorCode.SECOND_FACTOR_INVALID) {
          refusal = error.message;
          generation.current += 1;
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
