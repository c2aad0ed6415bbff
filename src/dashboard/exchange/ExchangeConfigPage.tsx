import LockIcon from '@mui/icons-material/LockOutlined';
import { Alert, AlertTitle, Box, Button, Chip, CircularProgress, Paper, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useDataProvider, useGetList, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { PAPER_EXCHANGE, type CredentialField, type ExchangeAccount, type ExchangeCatalogEntry } from '../../api/exchange';
import { ErrorCode } from '../../api/errors';
import { isApiError } from '../../dataProvider/ApiError';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { Screen } from '../layout/Screen';
import { ExchangePicker } from './ExchangePicker';
import { CREDENTIAL_FIELDS, exchangeLabel, formatBalances, isSecretField, refusalExplanation, refusedField, suggestedName } from './exchangeText';
import { useExchangeCatalog } from './useExchangeCatalog';

type FieldName = 'name' | CredentialField;
type Credentials = Partial<Record<CredentialField, string>>;

const section = { p: { xs: 2, md: 3 }, minWidth: 0 } as const;
const NAME_MAX = 32;

/** What a key must and must not allow, and what happens to it. */
const KeyRules = ({ entry }: { entry: ExchangeCatalogEntry }) => {
  const translate = useTranslate();
  return (
    <Alert severity="info" icon={<LockIcon />}>
      <AlertTitle>{translate('exchange.keyRules.title')}</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        <li>{translate('exchange.keyRules.checked')}</li>
        <li>{translate('exchange.keyRules.spot')}</li>
        <li>
          <strong>{translate(entry.checksPermissions ? 'exchange.keyRules.noWithdraw' : 'exchange.keyRules.noWithdrawUnchecked')}</strong>
        </li>
        <li>{translate('exchange.keyRules.stored')}</li>
      </Box>
    </Alert>
  );
};

/** `/exchange/add` (optionally `?exchange=<id>`) and `/exchange/edit/:id`: bind an exchange account, or rename it and replace its keys. */
export const ExchangeConfigPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { id } = useParams();
  const [params] = useSearchParams();
  const pickerLabel = useId();
  const catalog = useExchangeCatalog();
  // Same query as the list page (shared cache): only to suggest a name that is not taken yet.
  const existing = useGetList<ExchangeAccount>(
    'exchange',
    { pagination: { page: 1, perPage: 100 }, sort: { field: 'createdAt', order: 'ASC' } },
    { enabled: !id },
  );

  const [account, setAccount] = useState<ExchangeAccount | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [chosen, setChosen] = useState(params.get('exchange') ?? PAPER_EXCHANGE);
  /** null until the user types one: the suggested name shows meanwhile. */
  const [name, setName] = useState<string | null>(null);
  const [credentials, setCredentials] = useState<Credentials>({});
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [refusal, setRefusal] = useState<{ message: string; explanation: string } | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!id) return;
    dataProvider
      .getOne<ExchangeAccount>('exchange', { id })
      .then(({ data }) => {
        setAccount(data);
        setName(data.name);
      })
      .catch((error: unknown) => setLoadError(error instanceof Error ? error.message : translate('error.fallback')));
    // Load once per page; translate changes with the language only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, dataProvider]);

  const exchangeId = id ? account?.exchange : catalog.data?.some((entry) => entry.id === chosen) ? chosen : PAPER_EXCHANGE;
  const entry = catalog.data?.find((candidate) => candidate.id === exchangeId);
  const fields = entry?.credentials ?? [];
  const taken = existing.data?.map((a) => a.name) ?? [];
  const suggestion = id || !entry ? '' : suggestedName(entry.kind === 'paper' ? translate('exchange.paperDefaultName') : entry.name, taken);
  const nameValue = name ?? suggestion;
  const ready = id ? account !== null : entry !== undefined;

  const changed = (field: FieldName) => {
    setErrors(({ [field]: _, ...rest }) => rest);
    setRefusal(null);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || !exchangeId) return;
    const trimmedName = nameValue.trim();
    // Only the fields this exchange uses, and only those filled in: on edit an empty one keeps the stored value.
    const given: Credentials = {};
    for (const field of fields) {
      const value = credentials[field]?.trim();
      if (value) given[field] = value;
    }
    const missing: Partial<Record<FieldName, string>> = {};
    if (!trimmedName) missing.name = translate('ra.validation.required');
    if (!id) for (const field of fields) if (!given[field]) missing[field] = translate('ra.validation.required');
    setErrors(missing);
    setRefusal(null);
    if (Object.keys(missing).length > 0) return;

    setSaving(true);
    try {
      if (id) await dataProvider.update('exchange', { id, data: { name: trimmedName, ...given }, previousData: account ?? { id } });
      else await dataProvider.create('exchange', { data: { exchange: exchangeId, name: trimmedName, ...given } });
      await queryClient.invalidateQueries({ queryKey: ['exchange'] });
      notify(translate('exchange.saved'), { type: 'success' });
      navigate('/exchange');
    } catch (error) {
      const message = error instanceof Error ? error.message : translate('error.fallback');
      notify(message, { type: 'error' });
      const field = refusedField(error);
      if (field === 'name') {
        setErrors({ name: isApiError(error) && error.code === ErrorCode.ALREADY_EXISTS ? translate('exchange.nameTaken') : message });
      } else if ((CREDENTIAL_FIELDS as readonly string[]).includes(field ?? '')) {
        setErrors({ [field as CredentialField]: message });
      }
      const explanation = refusalExplanation(error, translate);
      if (explanation) setRefusal({ message, explanation });
    } finally {
      setSaving(false);
    }
  };

  const helperFor = (field: CredentialField) =>
    errors[field] ??
    ([field === 'password' ? translate('exchange.passwordHelp') : null, id ? translate('exchange.keepHelp') : null].filter(Boolean).join(' ') || undefined);

  return (
    <Screen titleKey={id ? 'page.exchangeEdit' : 'page.exchangeAdd'}>
      {loadError && <Alert severity="error">{loadError}</Alert>}
      {catalog.error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {translate('exchange.loadFailed')} {catalog.error.message}
        </Alert>
      )}
      {ready && (
        <Stack component="form" noValidate spacing={2} onSubmit={save}>
          {id && account ? (
            <Paper sx={section}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
                <Typography sx={{ fontWeight: 600 }}>
                  {translate('exchange.accountExchange', { exchange: exchangeLabel(account.exchange, catalog.data, translate) })}
                </Typography>
                {account.apiKeyHint && <Chip size="small" variant="outlined" label={translate('exchange.keyHint', { hint: account.apiKeyHint })} />}
              </Stack>
            </Paper>
          ) : (
            catalog.data && (
              <Paper sx={section}>
                <Typography id={pickerLabel} variant="subtitle1" sx={{ fontWeight: 600, mb: 1.5 }}>
                  {translate('exchange.chooseExchange')}
                </Typography>
                <ExchangePicker
                  catalog={catalog.data}
                  value={exchangeId ?? PAPER_EXCHANGE}
                  labelledBy={pickerLabel}
                  onChange={(next) => {
                    setChosen(next);
                    setErrors({});
                    setRefusal(null);
                  }}
                />
              </Paper>
            )
          )}

          <Paper sx={section}>
            <Stack spacing={2}>
              <TextField
                label={translate('exchange.name')}
                name="name"
                value={nameValue}
                required
                error={Boolean(errors.name)}
                helperText={errors.name ?? translate('exchange.nameHelp')}
                onChange={(event) => {
                  changed('name');
                  setName(event.target.value);
                }}
                slotProps={{ htmlInput: { maxLength: NAME_MAX } }}
              />
              {exchangeId === PAPER_EXCHANGE ? (
                <Alert severity="success" variant="outlined">
                  {translate('exchange.paperNote', {
                    balance: formatBalances((id ? account?.paperBalances : entry?.startBalances) ?? {}, locale),
                  })}
                </Alert>
              ) : (
                entry && (
                  <>
                    <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                      {translate('exchange.credentials')}
                    </Typography>
                    {fields.map((field) => (
                      <TextField
                        key={field}
                        label={translate(`exchange.field.${field}`)}
                        name={field}
                        type={isSecretField(field) ? 'password' : 'text'}
                        value={credentials[field] ?? ''}
                        required={!id}
                        error={Boolean(errors[field])}
                        helperText={helperFor(field)}
                        onChange={(event) => {
                          changed(field);
                          setCredentials((current) => ({ ...current, [field]: event.target.value }));
                        }}
                        slotProps={{
                          htmlInput: {
                            autoComplete: isSecretField(field) ? 'new-password' : 'off',
                            autoCapitalize: 'none',
                            spellCheck: false,
                          },
                        }}
                      />
                    ))}
                    <KeyRules entry={entry} />
                  </>
                )
              )}
            </Stack>
          </Paper>

          {refusal && (
            <Alert severity="error" role="alert">
              <AlertTitle>{refusal.message}</AlertTitle>
              {refusal.explanation}
            </Alert>
          )}

          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={saving}
            startIcon={saving ? <CircularProgress size={18} color="inherit" /> : undefined}
          >
            {translate(saving && exchangeId !== PAPER_EXCHANGE && Object.values(credentials).some((value) => value?.trim()) ? 'exchange.verifying' : 'exchange.save')}
          </Button>
        </Stack>
      )}
    </Screen>
  );
};
