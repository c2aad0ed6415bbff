import { Alert, Button, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { isApiError } from '../../dataProvider/ApiError';
import { DemoLocked, useIsDemo } from '../kit/demo';
import { QueryView } from '../kit/LoadError';
import { Section } from '../kit/Section';
import { useApi } from './api';

/** As the server keeps it: trimmed, at most 20 characters, no markup. */
export const PHRASE_MAX = 20;
const phraseKey = ['profile', 'anti-phishing'] as const;

/**
 * The anti-phishing phrase: every mail of the product shows it first, so a
 * mail without it is not ours. The app shows it only here, in its own field.
 */
export const AntiPhishing = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const api = useApi();
  const queryClient = useQueryClient();
  const demo = useIsDemo();
  const phrase = useQuery({ queryKey: phraseKey, queryFn: ({ signal }) => api.antiPhishing(signal), enabled: !demo });
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  useEffect(() => setValue(phrase.data?.phrase ?? ''), [phrase.data]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const text = value.trim();
    if ([...text].length > PHRASE_MAX) return setError(translate('profile.security.phrase.tooLong', { max: PHRASE_MAX }));
    if (/[<>&"']/.test(text)) return setError(translate('profile.security.phrase.markup'));
    setPending(true);
    try {
      const answer = await api.antiPhishingSet(text);
      queryClient.setQueryData(phraseKey, answer);
      notify(translate(answer.phrase ? 'profile.security.phrase.saved' : 'profile.security.phrase.cleared'), { type: 'success' });
    } catch (caught) {
      setError(isApiError(caught) ? caught.localizedMessage() : translate('error.fallback'));
    } finally {
      setPending(false);
    }
  };

  return (
    <Section name="anti-phishing" title={translate('profile.security.phrase.title')}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {translate('profile.security.phrase.hint')}
      </Typography>
      {demo ? (
        <DemoLocked />
      ) : (
        <QueryView query={phrase}>
          {() => (
            <Stack component="form" noValidate spacing={1.5} onSubmit={save} aria-label={translate('profile.security.phrase.title')}>
              <TextField
                label={translate('profile.security.phrase.label')}
                name="antiPhishingPhrase"
                value={value}
                error={Boolean(error)}
                helperText={error ?? translate('profile.security.phrase.help', { max: PHRASE_MAX })}
                onChange={(event) => {
                  setValue(event.target.value);
                  setError(null);
                }}
                slotProps={{ htmlInput: { maxLength: 64, autoComplete: 'off' } }}
              />
              {!phrase.data?.phrase && <Alert severity="info">{translate('profile.security.phrase.none')}</Alert>}
              <Button type="submit" variant="contained" disabled={pending} startIcon={pending ? <CircularProgress size={18} color="inherit" /> : undefined} sx={{ alignSelf: { xs: 'stretch', sm: 'flex-start' } }}>
                {translate('profile.security.phrase.save')}
              </Button>
            </Stack>
          )}
        </QueryView>
      )}
    </Section>
  );
};
