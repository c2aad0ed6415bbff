import TuneIcon from '@mui/icons-material/Tune';
import { createElement } from 'react';
import { lazyPage, type Domain } from '../domain';

const StrategyEditPage = lazyPage(() => import('./StrategyEditPage'), 'StrategyEditPage', ['BacktestLauncher']);
const StrategyListPage = lazyPage(() => import('./StrategyListPage'), 'StrategyListPage');

/** Strategy templates: the user's and the system's, and the template editor. */
export const strategy = {
  routes: [
    { path: '/strategy', titleKey: 'page.strategy', Component: StrategyListPage },
    { path: '/strategy/add', titleKey: 'page.strategyAdd', Component: StrategyEditPage },
    { path: '/strategy/edit/:id', titleKey: 'page.strategyEdit', Component: StrategyEditPage },
  ],
  menu: [{ to: '/strategy', labelKey: 'nav.strategy', icon: createElement(TuneIcon), place: 'tab', order: 30 }],
} satisfies Domain;
