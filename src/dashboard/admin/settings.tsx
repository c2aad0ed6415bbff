import { Alert, Box, CircularProgress, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import {
  ArrayInput,
  Form,
  ResourceContextProvider,
  SaveButton,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  Title,
  required,
  useNotify,
  useTranslate,
} from 'react-admin';
import type { ServiceSettings } from '../../api/admin';
import { ASSETS } from '../../api/wallet';
import { useDocumentTitle } from '../layout/Screen';
import { useEditSettings, useServiceSettings } from './api';
import { money } from './common';

export const SETTINGS_PATH = '/admin/settings';

/** The settings this page edits (the levels are their own resource). */
type EditedSettings = Omit<ServiceSettings, 'levels'>;
const KEYS: readonly (keyof EditedSettings)[] = [
  'swapRates',
  'withdrawFee',
  'withdrawMin',
  'transferMin',
  'activationCardPrice',
  'activationUsdtPrice',
  'fuelRatePercent',
  'inviteRewardPoints',
  'activationFuelGift',
  'depositNetwork',
];

/** Only what the operator changed: whole top-level fields (a rate table is sent whole). */
export const settingsChange = (before: EditedSettings, after: EditedSettings): Partial<EditedSettings> => {
  const change: Partial<EditedSettings> = {};
  for (const key of KEYS) {
    if (JSON.stringify(after[key]) !== JSON.stringify(before[key])) (change as Record<string, unknown>)[key] = after[key];
  }
  return change;
};

/** Form values back to the contract's types: decimals stay strings, counts are integers. */
const normalize = (values: EditedSettings): EditedSettings => ({
  ...values,
  swapRates: (values.swapRates ?? []).map((r) => ({ from: r.from, to: r.to, rate: String(r.rate).trim() })),
});

const assetChoices = ASSETS.map((id) => ({ id, name: `admin.assets.${id}` }));

const Section = ({ titleKey, children }: { titleKey: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Paper sx={{ p: { xs: 1.5, md: 2.5 }, mb: 2, minWidth: 0 }} component="section" aria-label={translate(titleKey)}>
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {translate(titleKey)}
      </Typography>
      {children}
    </Paper>
  );
};

const grid = {
  display: 'grid',
  columnGap: 2,
  gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))' },
} as const;

/** `/admin/settings`: the configured rules (levels, rates, fees, prices), saved as a partial change. */
export const SettingsPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const title = translate('admin.settings.title');
  useDocumentTitle(title);
  const settings = useServiceSettings();
  const save = useEditSettings();

  const onSubmit = (values: Record<string, unknown>) => {
    if (!settings.data) return;
    const change = settingsChange(settings.data, normalize(values as unknown as EditedSettings));
    if (Object.keys(change).length === 0) {
      notify(translate('admin.settings.unchanged'), { type: 'info' });
      return;
    }
    // Returning the call keeps the save button busy until the answer.
    return save
      .mutateAsync(change)
      .then(() => notify(translate('admin.settings.saved'), { type: 'success' }))
      .catch((error: unknown) => notify(error instanceof Error ? error.message : translate('error.fallback'), { type: 'error' }));
  };

  return (
    <Box component="section" data-title-key="admin.settings.title" sx={{ py: { xs: 1.5, md: 3 }, px: { xs: 0.5, md: 1 }, maxWidth: 1080, minWidth: 0 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 2 }}>
        {title}
      </Typography>
      {settings.isPending && <CircularProgress aria-label={translate('ra.page.loading')} />}
      {settings.error && <Alert severity="error">{settings.error.message}</Alert>}
      {settings.data && (
        // The array inputs name their rows after a resource: this page's own.
        <ResourceContextProvider value="admin/settings">
        <Form record={{ id: 'settings', ...settings.data }} onSubmit={onSubmit} key={JSON.stringify(settings.data)}>
          <Section titleKey="admin.settings.swapRates">
            <ArrayInput source="swapRates" label={false}>
              <SimpleFormIterator inline disableReordering>
                <SelectInput source="from" label="admin.settings.swap.from" choices={assetChoices} validate={required()} sx={{ width: 140 }} />
                <SelectInput source="to" label="admin.settings.swap.to" choices={assetChoices} validate={required()} sx={{ width: 140 }} />
                <TextInput source="rate" label="admin.settings.swap.rate" validate={money} sx={{ width: 160 }} />
              </SimpleFormIterator>
            </ArrayInput>
          </Section>
          <Section titleKey="admin.settings.wallet">
            <Box sx={grid}>
              <TextInput source="withdrawFee" label="admin.settings.fields.withdrawFee" validate={money} />
              <TextInput source="withdrawMin" label="admin.settings.fields.withdrawMin" validate={money} />
              <TextInput source="transferMin" label="admin.settings.fields.transferMin" validate={money} />
              <TextInput source="depositNetwork" label="admin.settings.fields.depositNetwork" validate={required()} />
            </Box>
          </Section>
          <Section titleKey="admin.settings.membership">
            <Box sx={grid}>
              <TextInput source="activationCardPrice" label="admin.settings.fields.activationCardPrice" validate={money} />
              <TextInput source="activationUsdtPrice" label="admin.settings.fields.activationUsdtPrice" validate={money} />
              <TextInput source="activationFuelGift" label="admin.settings.fields.activationFuelGift" validate={money} />
              <TextInput source="fuelRatePercent" label="admin.settings.fields.fuelRatePercent" validate={money} />
              <TextInput source="inviteRewardPoints" label="admin.settings.fields.inviteRewardPoints" validate={money} />
            </Box>
          </Section>
          <SaveButton label="admin.settings.save" />
        </Form>
        </ResourceContextProvider>
      )}
    </Box>
  );
};
