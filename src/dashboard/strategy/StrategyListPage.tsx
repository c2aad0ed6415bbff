import AddIcon from '@mui/icons-material/Add';
import { Alert, Box, Button, Typography } from '@mui/material';
import { useState } from 'react';
import { Confirm, useDelete, useGetList, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { StrategyTemplate } from '../../api/strategy';
import { ListState } from '../kit/ListState';
import { cardGrid } from '../kit/panels';
import { useSystemTemplates } from '../kit/queries';
import { Screen } from '../layout/Screen';
import { StrategyCard } from './StrategyCard';


/** Starts a task with this template: the wizard opens with it chosen. */
const UseButton = ({ template }: { template: StrategyTemplate }) => {
  const translate = useTranslate();
  return (
    <Button size="small" variant="contained" disableElevation component={Link} to={`/trade/add?${new URLSearchParams({ template: template.id }).toString()}`}>
      {translate('strategy.use')}
    </Button>
  );
};

/** `/strategy`: the user's templates and the system templates to copy or start a task with. */
export const StrategyListPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const [toDelete, setToDelete] = useState<StrategyTemplate | null>(null);
  const [deleteOne, { isPending: deleting }] = useDelete();
  const mine = useGetList<StrategyTemplate>('strategy', { pagination: { page: 1, perPage: 100 }, sort: { field: 'updatedAt', order: 'DESC' } });
  const system = useSystemTemplates();

  return (
    <Screen titleKey="page.strategy" back={false}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1.5 }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {translate('strategy.mine')}
        </Typography>
        <Button component={Link} to="/strategy/add" variant="contained" startIcon={<AddIcon />}>
          {translate('strategy.add')}
        </Button>
      </Box>
      <ListState hasData={mine.data !== undefined} isPending={mine.isPending} error={mine.error} onRetry={() => void mine.refetch()} skeletons={1}>
        {mine.data?.length === 0 && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {translate('strategy.empty')}
          </Alert>
        )}
        <Box sx={cardGrid}>
          {mine.data?.map((template) => (
            <StrategyCard
              key={template.id}
              template={template}
              actions={
                <>
                  <Button size="small" color="error" onClick={() => setToDelete(template)}>
                    {translate('strategy.delete')}
                  </Button>
                  <Button size="small" component={Link} to={`/strategy/edit/${template.id}`}>
                    {translate('strategy.edit')}
                  </Button>
                  <UseButton template={template} />
                </>
              }
            />
          ))}
        </Box>
      </ListState>

      <Typography variant="h6" component="h2" sx={{ mt: 4 }}>
        {translate('strategy.system')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {translate('strategy.systemHint')}
      </Typography>
      <ListState hasData={system.data !== undefined} isPending={system.isPending} error={system.error} onRetry={() => void system.refetch()} skeletons={3}>
        <Box sx={cardGrid}>
          {system.data?.map((template) => (
            <StrategyCard
              key={template.id}
              template={template}
              actions={
                <>
                  <Button size="small" component={Link} to={`/strategy/add?copy=${template.id}`}>
                    {translate('strategy.copy')}
                  </Button>
                  <UseButton template={template} />
                </>
              }
            />
          ))}
        </Box>
      </ListState>

      <Confirm
        isOpen={toDelete !== null}
        loading={deleting}
        title={translate('strategy.delete')}
        content={translate('strategy.deleteConfirm', { name: toDelete?.name ?? '' })}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          deleteOne(
            'strategy',
            { id: toDelete.id, previousData: toDelete },
            {
              onSuccess: () => notify(translate('strategy.deleted'), { type: 'success' }),
              onError: (error) => notify(error instanceof Error ? error.message : translate('error.fallback'), { type: 'error' }),
              onSettled: () => setToDelete(null),
            },
          );
        }}
      />
    </Screen>
  );
};
