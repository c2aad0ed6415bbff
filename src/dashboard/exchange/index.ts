import KeyIcon from '@mui/icons-material/Key';
import { createElement } from 'react';
import { lazyPage, type Domain } from '../domain';

const ExchangeConfigPage = lazyPage(() => import('./ExchangeConfigPage'), 'ExchangeConfigPage');
const ExchangeListPage = lazyPage(() => import('./ExchangeListPage'), 'ExchangeListPage');

/** The exchange accounts a user binds (spec: API list and API config). */
export const exchange = {
  routes: [
    { path: '/exchange', titleKey: 'page.exchange', Component: ExchangeListPage },
    { path: '/exchange/add', titleKey: 'page.exchangeAdd', Component: ExchangeConfigPage },
    { path: '/exchange/edit/:id', titleKey: 'page.exchangeEdit', Component: ExchangeConfigPage },
  ],
  menu: [{ to: '/exchange', labelKey: 'page.exchange', icon: createElement(KeyIcon), place: 'more', order: 50 }],
} satisfies Domain;
