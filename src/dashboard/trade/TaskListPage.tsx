import AddIcon from '@mui/icons-material/Add';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLongOutlined';
import SearchIcon from '@mui/icons-material/Search';
import SmartToyIcon from '@mui/icons-material/SmartToyOutlined';
import {
  Alert,
  Box,
  Button,
  InputAdornment,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { ListBase, useListContext, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { TradeTask } from '../../api/trade';
import { ListState } from '../kit/ListState';
import { PagePagination } from '../kit/PagePagination';
import { EmptyPanel, cardGrid } from '../kit/panels';
import { Screen } from '../layout/Screen';
import { TASKS } from './api';
import { TASK_REFRESH_MS } from '../kit/queries';
import { TaskCard } from './TaskCard';

const PAGE_SIZE = 20;
const FILTERS = ['all', 'running', 'stopped', 'finished'] as const;
type Filter = (typeof FILTERS)[number];

interface TaskFilter {
  running?: boolean;
  finished?: boolean;
  symbol?: string;
}

const FILTER_QUERY: Record<Filter, Pick<TaskFilter, 'running' | 'finished'>> = {
  all: {},
  running: { running: true, finished: false },
  stopped: { running: false, finished: false },
  finished: { finished: true },
};

/** The state filter the list's filter values stand for. */
const filterOf = (values: TaskFilter): Filter =>
  FILTERS.find((f) => FILTER_QUERY[f].running === values.running && FILTER_QUERY[f].finished === values.finished) ?? 'all';

const EmptyState = () => {
  const translate = useTranslate();
  return (
    <EmptyPanel icon={<SmartToyIcon color="primary" sx={{ fontSize: 48 }} />} titleKey="tasks.emptyTitle" textKey="tasks.emptyText">
      <Button component={Link} to="/trade/add" variant="contained" startIcon={<AddIcon />} sx={{ mt: 3 }}>
        {translate('tasks.add')}
      </Button>
    </EmptyPanel>
  );
};

/** The state toggles and the symbol search: the list's filters (kept in the address by react-admin). */
const TaskFilters = () => {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext<TradeTask>();
  const values = filterValues as TaskFilter;
  const filter = filterOf(values);
  const [search, setSearch] = useState(values.symbol ?? '');

  // The search field sends its text once typing pauses.
  useEffect(() => {
    const symbol = search.trim().toUpperCase();
    if (symbol === (values.symbol ?? '')) return;
    const timer = setTimeout(() => setFilters({ ...values, symbol: symbol || undefined }, {}, false), 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
      <ToggleButtonGroup
        size="small"
        exclusive
        color="primary"
        value={filter}
        aria-label={translate('tasks.filter.label')}
        onChange={(_, next: Filter | null) => next && setFilters({ ...FILTER_QUERY[next], symbol: values.symbol }, {}, false)}
        sx={{ bgcolor: 'background.paper', '& .MuiToggleButton-root': { flex: { xs: 1, sm: 'none' }, px: 1.5, whiteSpace: 'nowrap' } }}
      >
        {FILTERS.map((f) => (
          <ToggleButton key={f} value={f}>
            {translate(`tasks.filter.${f}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <TextField
        size="small"
        type="search"
        value={search}
        placeholder={translate('tasks.search')}
        onChange={(event) => setSearch(event.target.value)}
        variant="outlined"
        sx={{ width: { xs: '100%', sm: 220 }, '& .MuiInputBase-root': { bgcolor: 'background.paper' } }}
        slotProps={{
          htmlInput: { 'aria-label': translate('tasks.search'), maxLength: 20 },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
    </Stack>
  );
};

/** The tasks of the current page as cards; an invitation when there is none at all. */
const TaskCards = () => {
  const translate = useTranslate();
  const { data, total, error, isPending, refetch, filterValues } = useListContext<TradeTask>();
  const filtered = Object.values(filterValues).some((value) => value !== undefined && value !== '');
  return (
    <ListState hasData={data !== undefined} isPending={isPending} error={error} onRetry={() => void refetch()}>
      {total === 0 && (filtered ? <Alert severity="info">{translate('tasks.emptyFiltered')}</Alert> : <EmptyState />)}
      <Box sx={cardGrid}>
        {data?.map((task) => (
          <TaskCard key={task.id} task={task} />
        ))}
      </Box>
    </ListState>
  );
};

/** `/trade`: every task as a card with its figures, refreshed every 5 s; filters, search and page in the address. */
export const TaskListPage = () => {
  const translate = useTranslate();
  return (
    <Screen titleKey="page.trade" back={false}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 2 }}>
        <Typography color="text.secondary" sx={{ flexGrow: 1, minWidth: { xs: '100%', sm: 0 } }}>
          {translate('tasks.intro')}
        </Typography>
        <Button component={Link} to="/trade/all-order-history" variant="outlined" startIcon={<ReceiptLongIcon />}>
          {translate('tasks.allOrders')}
        </Button>
        <Button component={Link} to="/trade/add" variant="contained" startIcon={<AddIcon />}>
          {translate('tasks.add')}
        </Button>
      </Box>
      <ListBase resource={TASKS} perPage={PAGE_SIZE} sort={{ field: 'createdAt', order: 'DESC' }} queryOptions={{ refetchInterval: TASK_REFRESH_MS }}>
        <TaskFilters />
        <TaskCards />
        <PagePagination />
      </ListBase>
    </Screen>
  );
};
