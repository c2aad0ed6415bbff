import LockIcon from '@mui/icons-material/LockOutlined';
import { Alert, AlertTitle, Box, Button, Chip, CircularProgress, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import {
  CreateBase,
  EditBase,
  Form,
  SelectInput,
  TextInput,
  required,
  useEditContext,
  useGetList,
  useLocaleState,
  useNotify,
  useSaveContext,
  useTranslate,
} from 'react-admin';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { isTestnetExchange, PAPER_EXCHANGE, type CredentialField, type ExchangeAccount, type ExchangeCatalogEntry } from '../../api/exchange';
import { ErrorCode } from '../../api/errors';
import { isApiError } from '../../dataProvider/ApiError';
import { isStepUpCancelled, useStepUp } from '../kit/StepUp';
import { LoadError } from '../kit/LoadError';
import { sectionSx as section } from '../kit/Section';
import { Screen } from '../layout/Screen';
import { EXCHANGES, useExchangeCatalog } from '../kit/queries';
import { ExchangePicker } from './ExchangePicker';
import { exchangeLabel, formatBalances, isSecretField, priceSourceLabel, refusalExplanation, suggestedName } from './exchangeText';
import { PaperPrices } from './PaperPrices';

const NAME_MAX = 32;

/** The form's values: the exchange (fixed on edit), the account's name and the credentials typed. */
type AccountValues = { exchange: string; name: string; priceSource?: string } & Partial<Record<CredentialField, string>>;

/** A refusal of the exchange (a key that may withdraw, a wrong key...) with what to do about it, above the save button. */
interface Refusal {
  message: string;
  explanation: string;
}

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

/** The body a save sends: the name, and only the credentials of this exchange that were filled in (on edit an empty one keeps the stored value). */
const payload = (values: AccountValues, fields: readonly CredentialField[]) => {
  const given: Partial<Record<CredentialField, string>> = {};
  for (const field of fields) {
    const value = values[field]?.trim();
    if (value) given[field] = value;
  }
  return { name: values.name.trim(), ...given };
};

/** The create form's exchange choice: the radio cards; picking another exchange suggests its name unless one was typed. */
const PickExchange = ({ catalog, taken, onPick }: { catalog: readonly ExchangeCatalogEntry[]; taken: readonly string[]; onPick: () => void }) => {
  const translate = useTranslate();
  const label = useId();
  const { field } = useController<AccountValues, 'exchange'>({ name: 'exchange' });
  const { getFieldState, setValue, clearErrors } = useFormContext<AccountValues>();
  return (
    <Paper sx={section}>
      <Typography id={label} variant="subtitle1" sx={{ fontWeight: 600, mb: 1.5 }}>
        {translate('exchange.chooseExchange')}
      </Typography>
      <ExchangePicker
        catalog={catalog}
        value={field.value}
        labelledBy={label}
        onChange={(next) => {
          field.onChange(next);
          clearErrors();
          onPick();
          const entry = catalog.find((candidate) => candidate.id === next);
          if (entry && !getFieldState('name').isDirty) {
            setValue('name', suggestedName(entry.kind === 'paper' ? translate('exchange.paperDefaultName') : entry.name, taken));
          }
        }}
      />
    </Paper>
  );
};

/** The account form, on react-admin's Form inside EditBase or CreateBase. */
const AccountForm = ({
  catalog,
  account,
  record,
  taken = [],
  refusal,
  clearRefusal,
  lastError,
}: {
  catalog: readonly ExchangeCatalogEntry[];
  /** The account being edited (its exchange is fixed); absent on create. */
  account?: ExchangeAccount;
  record: AccountValues;
  taken?: readonly string[];
  refusal: Refusal | null;
  clearRefusal: () => void;
  lastError: { current: unknown };
}) => {
  const translate = useTranslate();
  const { save, saving } = useSaveContext();
  const stepUp = useStepUp();

  /**
   * A name already taken says so in its own words; any other field refusal shows as the server's text (ApiError's `body.errors`).
   * Keys of a real exchange with a second factor on: the step-up dialog asks for a code and the save goes again with it.
   */
  const submit = async (values: AccountValues) => {
    const attempt = async (secondFactor?: string) => {
      lastError.current = null;
      const errors = (await save?.(values, secondFactor ? { meta: { secondFactor } } : undefined)) as Record<string, string> | undefined;
      const error = lastError.current;
      if (isStepUpRefusal(error)) throw error;
      return { errors, error };
    };
    try {
      const { errors, error } = await stepUp.run(attempt);
      if (errors?.name && isApiError(error) && error.code === ErrorCode.ALREADY_EXISTS) return { ...errors, name: translate('exchange.nameTaken') };
      return errors;
    } catch (error) {
      if (isStepUpCancelled(error)) return undefined;
      throw error;
    }
  };

  return (
    <Form record={record} onSubmit={submit as never} noValidate>
      {stepUp.dialog}
      <AccountFields catalog={catalog} account={account} taken={taken} clearRefusal={clearRefusal} />
      {refusal && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          <AlertTitle>{refusal.message}</AlertTitle>
          {refusal.explanation}
        </Alert>
      )}
      <SaveButton saving={!!saving} />
    </Form>
  );
};

const AccountFields = ({ catalog, account, taken, clearRefusal }: { catalog: readonly ExchangeCatalogEntry[]; account?: ExchangeAccount | undefined; taken: readonly string[]; clearRefusal: () => void }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const exchangeId = useWatch<AccountValues, 'exchange'>({ name: 'exchange' });
  const entry = catalog.find((candidate) => candidate.id === exchangeId);
  const fields = entry?.credentials ?? [];
  // Typing again clears an exchange's refusal.
  const values = useWatch<AccountValues>();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else clearRefusal();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [JSON.stringify(values)]);

  const helperFor = (field: CredentialField) =>
    [field === 'password' ? translate('exchange.passwordHelp') : null, account ? translate('exchange.keepHelp') : null].filter(Boolean).join(' ') || false;

  return (
    <Stack spacing={2}>
      {account ? (
        <Paper sx={section}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
            <Typography sx={{ fontWeight: 600 }}>{translate('exchange.accountExchange', { exchange: exchangeLabel(account.exchange, catalog, translate) })}</Typography>
            {isTestnetExchange(account.exchange) && <Chip size="small" color="warning" label={translate('exchange.testnetBadge')} data-testnet />}
            {account.apiKeyHint && <Chip size="small" variant="outlined" label={translate('exchange.keyHint', { hint: account.apiKeyHint })} />}
          </Stack>
        </Paper>
      ) : (
        <PickExchange catalog={catalog} taken={taken} onPick={clearRefusal} />
      )}

      <Paper sx={section}>
        <Stack spacing={2}>
          <TextInput
            source="name"
            variant="outlined"
            label={translate('exchange.name')}
            helperText={translate('exchange.nameHelp')}
            validate={required()}
            parse={(value: string) => value}
            slotProps={{ htmlInput: { maxLength: NAME_MAX } }}
          />
          {exchangeId === PAPER_EXCHANGE ? (
            <>
              <Alert severity="success" variant="outlined">
                {translate('exchange.paperNote', { balance: formatBalances((account ? account.paperBalances : entry?.startBalances) ?? {}, locale) })}
              </Alert>
              {account
                ? account.prices && <PaperPrices prices={account.prices} />
                : (entry?.priceSources?.length ?? 0) > 0 && (
                    <SelectInput
                      source="priceSource"
                      variant="outlined"
                      label={translate('exchange.priceSource')}
                      helperText={translate('exchange.priceSourceHelp')}
                      choices={(entry?.priceSources ?? []).map((source) => ({ id: source, name: priceSourceLabel(source, catalog, translate) }))}
                      translateChoice={false}
                      validate={required()}
                    />
                  )}
            </>
          ) : (
            entry && (
              <>
                <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                  {translate('exchange.credentials')}
                </Typography>
                {fields.map((field) => (
                  <TextInput
                    key={`${exchangeId}-${field}`}
                    source={field}
                    variant="outlined"
                    label={translate(`exchange.field.${field}`)}
                    type={isSecretField(field) ? 'password' : 'text'}
                    validate={account ? undefined : required()}
                    helperText={helperFor(field)}
                    parse={(value: string) => value}
                    slotProps={{ htmlInput: { autoComplete: isSecretField(field) ? 'new-password' : 'off', autoCapitalize: 'none', spellCheck: false } }}
                  />
                ))}
                <KeyRules entry={entry} />
              </>
            )
          )}
        </Stack>
      </Paper>
    </Stack>
  );
};

/** "Save", or "Checking the key…" while a real exchange checks the keys typed. */
const SaveButton = ({ saving }: { saving: boolean }) => {
  const translate = useTranslate();
  const values = useWatch<AccountValues>();
  const checking = saving && values.exchange !== PAPER_EXCHANGE && (['apiKey', 'secret', 'password', 'uid'] as const).some((field) => values[field]?.trim());
  return (
    <Button type="submit" variant="contained" size="large" fullWidth disabled={saving} startIcon={saving ? <CircularProgress size={18} color="inherit" /> : undefined} sx={{ mt: 2 }}>
      {translate(checking ? 'exchange.verifying' : 'exchange.save')}
    </Button>
  );
};

/**
 * The refusal shown above the save button and the error behind the last
 * failed save; a saved account goes back to the list (a new one with
 * `?saved=<id>`, where the list offers to create a task on it).
 */
const isStepUpRefusal = (error: unknown) =>
  isApiError(error) && (error.code === ErrorCode.SECOND_FACTOR_REQUIRED || error.code === ErrorCode.SECOND_FACTOR_INVALID);

const useSaveOutcome = (adding: boolean) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const lastError = useRef<unknown>(null);
  const mutationOptions = {
    onSuccess: async (saved: unknown) => {
      await queryClient.invalidateQueries({ queryKey: [EXCHANGES] });
      notify(translate('exchange.saved'), { type: 'success' });
      // A new account: the list offers its next step, a task on it.
      const savedId = (saved as { id?: unknown } | undefined)?.id;
      navigate(adding && typeof savedId === 'string' ? `/exchange?${new URLSearchParams({ saved: savedId }).toString()}` : '/exchange');
    },
    onError: (error: unknown) => {
      lastError.current = error;
      // Asked for in the step-up dialog, which shows a wrong code itself.
      if (isStepUpRefusal(error)) return;
      const message = error instanceof Error ? error.message : translate('error.fallback');
      notify(message, { type: 'error' });
      const explanation = refusalExplanation(error, translate, locale);
      setRefusal(explanation ? { message, explanation } : null);
    },
  };
  return { refusal, clearRefusal: () => setRefusal(null), lastError, mutationOptions };
};

const FormSkeleton = () => (
  <Stack spacing={2} aria-busy="true" data-state="loading">
    <Skeleton variant="rounded" height={120} />
    <Skeleton variant="rounded" height={160} />
  </Stack>
);

/** The loaded account's form: nothing editable while it loads or when it could not be loaded. */
const EditAccount = ({ catalog, outcome }: { catalog: readonly ExchangeCatalogEntry[]; outcome: ReturnType<typeof useSaveOutcome> }) => {
  const { record, isPending, error, refetch } = useEditContext<ExchangeAccount>();
  if (error) return <LoadError error={error} onRetry={() => void refetch()} />;
  if (isPending || !record) return <FormSkeleton />;
  return (
    <AccountForm
      catalog={catalog}
      account={record}
      record={{ exchange: record.exchange, name: record.name }}
      refusal={outcome.refusal}
      clearRefusal={outcome.clearRefusal}
      lastError={outcome.lastError}
    />
  );
};

/** `/exchange/add` (optionally `?exchange=<id>`) and `/exchange/edit/:id`: bind an exchange account, or rename it and replace its keys. */
export const ExchangeConfigPage = () => {
  const translate = useTranslate();
  const { id } = useParams();
  const [params] = useSearchParams();
  const catalog = useExchangeCatalog();
  const outcome = useSaveOutcome(!id);
  // Same query as the list page (shared cache): only to suggest a name that is not taken yet.
  const existing = useGetList<ExchangeAccount>(EXCHANGES, { pagination: { page: 1, perPage: 100 }, sort: { field: 'createdAt', order: 'ASC' } }, { enabled: !id });
  const fieldsOf = (exchange: string) => catalog.data?.find((entry) => entry.id === exchange)?.credentials ?? [];

  let body;
  if (catalog.error) {
    body = (
      <Alert severity="error" sx={{ mb: 2 }}>
        {translate('exchange.loadFailed')} {catalog.error.message}
      </Alert>
    );
  } else if (!catalog.data) {
    body = <FormSkeleton />;
  } else if (id) {
    body = (
      <EditBase
        resource={EXCHANGES}
        id={id}
        mutationMode="pessimistic"
        transform={(values: AccountValues) => payload(values, fieldsOf(values.exchange))}
        mutationOptions={outcome.mutationOptions}
        queryOptions={{ onError: () => undefined }}
        redirect={false}
        redirectOnError={false}
      >
        <EditAccount catalog={catalog.data} outcome={outcome} />
      </EditBase>
    );
  } else if (existing.isPending) {
    body = <FormSkeleton />;
  } else {
    const wanted = params.get('exchange');
    const entry = catalog.data.find((candidate) => candidate.id === wanted) ?? catalog.data.find((candidate) => candidate.id === PAPER_EXCHANGE) ?? catalog.data[0]!;
    const taken = existing.data?.map((account) => account.name) ?? [];
    const name = suggestedName(entry.kind === 'paper' ? translate('exchange.paperDefaultName') : entry.name, taken);
    // The paper account's prices: the catalog's first source (Binance) unless the user picks another.
    const paperSources = catalog.data.find((candidate) => candidate.id === PAPER_EXCHANGE)?.priceSources;
    body = (
      <CreateBase
        resource={EXCHANGES}
        transform={(values: AccountValues) => ({
          exchange: values.exchange,
          ...payload(values, fieldsOf(values.exchange)),
          ...(values.exchange === PAPER_EXCHANGE && values.priceSource ? { priceSource: values.priceSource } : {}),
        })}
        mutationOptions={outcome.mutationOptions}
        redirect={false}
      >
        <AccountForm
          catalog={catalog.data}
          record={{ exchange: entry.id, name, priceSource: paperSources?.[0] }}
          taken={taken}
          refusal={outcome.refusal}
          clearRefusal={outcome.clearRefusal}
          lastError={outcome.lastError}
        />
      </CreateBase>
    );
  }
  return <Screen titleKey={id ? 'page.exchangeEdit' : 'page.exchangeAdd'}>{body}</Screen>;
};
