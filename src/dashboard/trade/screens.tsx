import { Chip, Stack } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useParams, useSearchParams } from 'react-router-dom';
import { ComingSoon, Screen } from '../layout/Screen';
import { pairId, useWizardDraft } from './wizard/draftStore';

export const TradeListPage = () => (
  <Screen titleKey="page.trade" back={false}>
    <ComingSoon />
  </Screen>
);

export const PairSelectPage = () => {
  const translate = useTranslate();
  const { selectedPairs } = useWizardDraft();
  return (
    <Screen titleKey="page.pairSelect">
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 2 }} aria-label={translate('wizard.pairs')}>
        {selectedPairs.map((pair) => (
          <Chip key={pairId(pair)} label={pairId(pair)} color="primary" />
        ))}
      </Stack>
      <ComingSoon />
    </Screen>
  );
};

export const TradeDetailPage = () => {
  const { id } = useParams();
  return (
    <Screen titleKey="page.tradeDetail">
      <span data-task-id={id} />
      <ComingSoon />
    </Screen>
  );
};

/** Order history of one task: the route's `taskId` query is the page's `id`. */
export const OrderHistoryPage = ({ id }: { id: string | null }) => (
  <Screen titleKey="page.orderHistory">
    <span data-task-id={id ?? ''} />
    <ComingSoon />
  </Screen>
);

export const OrderHistoryRoute = () => {
  const [params] = useSearchParams();
  return <OrderHistoryPage id={params.get('taskId')} />;
};

export const AllOrderHistoryPage = () => (
  <Screen titleKey="page.allOrderHistory">
    <ComingSoon />
  </Screen>
);
