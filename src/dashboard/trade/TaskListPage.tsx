import AddIcon from '@mui/icons-material/Add';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLongOutlined';
import SearchIcon from '@mui/icons-material/Search';
import SmartToyIcon from '@mui/icons-material/SmartToyOutlined';
import {
  Alert,
  Box,
  Button,
  InputAdornment,
  Pagination,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { EmptyPanel, cardGrid } from '../layout/panels';
import { Screen } from '../layout/Screen';
import { TaskCard } from './TaskCard';
import { TASK_REFRESH_MS } from './taskText';

const PAGE_SIZE = 20;
const FILTERS = ['all', 'running', 'stopped', 'finished'] as const;
type Filter = (typeof FILTERS)[number];

const FILTER_QUERY: Record<Filter, { running?: boolean; finished?: boolean }> = {
  all: {},
  running: { running: true, finished: false },
  stopped: { running: false, finished: false },
  finished: { finished: true },
};


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

/** `/trade`: every task as a card with its figures, refreshed every 5 s; filters and search in the address. */
export const TaskListPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [params, setParams] = useSearchParams();
  const filter: Filter = (FILTERS as readonly string[]).includes(params.get('status') ?? '') ? (params.get('status') as Filter) : 'all';
  const symbol = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [search, setSearch] = useState(symbol);

  const change = (next: { status?: Filter; q?: string; page?: number }) =>
    setParams(
      (current) => {
        const merged = new URLSearchParams(current);
        const set = (key: string, value: string | undefined) => (value ? merged.set(key, value) : merged.delete(key));
        if (next.status !== undefined) set('status', next.status === 'all' ? undefined : next.status);
        if (next.q !== undefined) set('q', next.q.trim().toUpperCase());
        set('page', next.page && next.page > 1 ? String(next.page) : undefined);
        return merged;
      },
      { replace: true },
    );

  // The search field sends its text once typing pauses.
  useEffect(() => {
    if (search.trim().toUpperCase() === symbol) return;
    const timer = setTimeout(() => change({ q: search }), 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  const query = { page, pageSize: PAGE_SIZE, symbol: symbol || undefined, ...FILTER_QUERY[filter] };
  const tasks = useQuery({
    queryKey: ['trade', 'list', query],
    queryFn: ({ signal }) => dataProvider.tradeList(query, signal),
    refetchInterval: TASK_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const filtered = filter !== 'all' || symbol !== '';
  const pages = Math.ceil((tasks.data?.total ?? 0) / PAGE_SIZE);

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

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          color="primary"
          value={filter}
          aria-label={translate('tasks.filter.label')}
          onChange={(_, next: Filter | null) => next && change({ status: next })}
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

      {tasks.error && <Alert severity="error" sx={{ mb: 2 }}>{tasks.error.message}</Alert>}
      {tasks.data?.total === 0 && (filtered ? <Alert severity="info">{translate('tasks.emptyFiltered')}</Alert> : <EmptyState />)}
      <Box sx={cardGrid}>
        {tasks.data?.list.map((task) => (
          <TaskCard key={task.id} task={task} />
        ))}
      </Box>
      {pages > 1 && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
          <Pagination count={pages} page={page} color="primary" onChange={(_, next) => change({ page: next })} />
        </Box>
      )}
    </Screen>
  );
};
