import AutoGraphIcon from '@mui/icons-material/AutoGraph';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { createElement } from 'react';
import { lazyPage, type Domain } from '../domain';
import { WizardRouteWatcher } from './wizard/navigation';

const AllOrderHistoryPage = lazyPage(() => import('./OrderHistoryPage'), 'AllOrderHistoryPage');
const OrderHistoryRoute = lazyPage(() => import('./OrderHistoryPage'), 'OrderHistoryRoute');
const PairSelectPage = lazyPage(() => import('./PairSelectPage'), 'PairSelectPage');
const TaskDetailPage = lazyPage(() => import('./TaskDetailPage'), 'TaskDetailPage', ['TaskReturns']);
const TaskListPage = lazyPage(() => import('./TaskListPage'), 'TaskListPage');
const TradeAddPage = lazyPage(() => import('./TradeAddPage'), 'TradeAddPage', ['BacktestLauncher']);

/** Trading tasks: the list, the wizard (add and pair selection), a task, and the order histories. */
export const trade = {
  routes: [
    { path: '/trade', titleKey: 'page.trade', Component: TaskListPage },
    { path: '/trade/add', titleKey: 'page.tradeAdd', Component: TradeAddPage },
    { path: '/trade/detail/:id', titleKey: 'page.tradeDetail', Component: TaskDetailPage },
    { path: '/trade/order-history', titleKey: 'page.orderHistory', Component: OrderHistoryRoute },
    { path: '/trade/all-order-history', titleKey: 'page.allOrderHistory', Component: AllOrderHistoryPage },
    { path: '/trade/pair-select', titleKey: 'page.pairSelect', Component: PairSelectPage },
  ],
  // The wizard's draft is reset on leaving it, from any page (spec section 2).
  watchers: [WizardRouteWatcher],
  menu: [
    { to: '/trade', labelKey: 'nav.trade', icon: createElement(AutoGraphIcon), place: 'tab', order: 20 },
    { to: '/trade/all-order-history', labelKey: 'page.allOrderHistory', icon: createElement(ReceiptLongIcon), place: 'more', order: 60 },
  ],
} satisfies Domain;
