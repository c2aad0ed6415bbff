import AddIcon from '@mui/icons-material/Add';
import ScienceIcon from '@mui/icons-material/ScienceOutlined';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Confirm, useDelete, useGetList, useNotify, useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';
import { PAPER_EXCHANGE, type ExchangeAccount } from '../../api/exchange';
import { ListState } from '../kit/ListState';
import { EmptyPanel, cardGrid } from '../kit/panels';
import { Screen } from '../layout/Screen';
import { ExchangeAccountCard } from './ExchangeAccountCard';
import { exchangeLabel, refusalExplanation } from './exchangeText';
import { useExchangeCatalog } from '../kit/queries';


/** No account yet: the paper account is the way to try everything without real money. */
const EmptyState = () => {
  const translate = useTranslate();
  return (
    <EmptyPanel icon={<ScienceIcon color="success" sx={{ fontSize: 48 }} />} titleKey="exchange.emptyTitle" textKey="exchange.emptyText">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 3, justifyContent: 'center' }}>
        <Button component={Link} to={`/exchange/add?exchange=${PAPER_EXCHANGE}`} variant="contained" startIcon={<ScienceIcon />}>
          {translate('exchange.addPaper')}
        </Button>
        <Button component={Link} to="/exchange/add" variant="outlined">
          {translate('exchange.addReal')}
        </Button>
      </Stack>
    </EmptyPanel>
  );
};

/** Right after an account is saved (`?saved=<id>`): its next step, a task trading on it. */
const NextStep = ({ accounts }: { accounts: ExchangeAccount[] | undefined }) => {
  const translate = useTranslate();
  const [params] = useSearchParams();
  const saved = accounts?.find((account) => account.id === params.get('saved'));
  if (!saved) return null;
  return (
    <Alert
      severity="success"
      sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap', '& .MuiAlert-message': { flex: '1 1 12rem', minWidth: 0 } }}
      action={
        <Button variant="contained" size="small" component={Link} to={`/trade/add?${new URLSearchParams({ exchange: saved.id }).toString()}`} startIcon={<AddIcon />}>
          {translate('exchange.nextStep.createTask')}
        </Button>
      }
      data-next-step="create-task"
    >
      {translate('exchange.nextStep.text', { name: saved.name })}
    </Alert>
  );
};

/** `/exchange`: the exchange accounts the user has bound (spec: API list). */
export const ExchangeListPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const [toDelete, setToDelete] = useState<ExchangeAccount | null>(null);
  const [deleteOne, { isPending: deleting }] = useDelete();
  const accounts = useGetList<ExchangeAccount>('exchange', { pagination: { page: 1, perPage: 100 }, sort: { field: 'createdAt', order: 'ASC' } });
  const catalog = useExchangeCatalog();

  return (
    <Screen titleKey="page.exchange">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2 }}>
        <Typography color="text.secondary" sx={{ flexGrow: 1, minWidth: 0 }}>
          {translate('exchange.intro')}
        </Typography>
        <Button component={Link} to="/exchange/add" variant="contained" startIcon={<AddIcon />} sx={{ flexShrink: 0 }}>
          {translate('exchange.add')}
        </Button>
      </Box>
      <NextStep accounts={accounts.data} />
      <ListState hasData={accounts.data !== undefined} isPending={accounts.isPending} error={accounts.error} onRetry={() => void accounts.refetch()} skeletons={2} height={180}>
        {accounts.data?.length === 0 ? (
          <EmptyState />
        ) : (
          <Box sx={cardGrid}>
            {accounts.data?.map((account) => (
              <ExchangeAccountCard
                key={account.id}
                account={account}
                exchangeName={exchangeLabel(account.exchange, catalog.data, translate)}
                actions={
                  <>
                    <Button size="small" color="error" onClick={() => setToDelete(account)}>
                      {translate('exchange.delete')}
                    </Button>
                    <Button size="small" component={Link} to={`/exchange/edit/${account.id}`}>
                      {translate('exchange.edit')}
                    </Button>
                  </>
                }
              />
            ))}
          </Box>
        )}
      </ListState>

      <Confirm
        isOpen={toDelete !== null}
        loading={deleting}
        title={translate('exchange.delete')}
        content={translate(toDelete?.exchange === PAPER_EXCHANGE ? 'exchange.deleteConfirm' : 'exchange.deleteConfirmKeys', { name: toDelete?.name ?? '' })}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          deleteOne(
            'exchange',
            { id: toDelete.id, previousData: toDelete },
            {
              onSuccess: () => notify(translate('exchange.deleted'), { type: 'success' }),
              // "In use" comes as a bare 10008: its own explanation says what to do.
              onError: (error) =>
                notify(refusalExplanation(error, translate) ?? (error instanceof Error ? error.message : translate('error.fallback')), { type: 'error' }),
              onSettled: () => setToDelete(null),
            },
          );
        }}
      />
    </Screen>
  );
};
