import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import { createElement } from 'react';
import { lazyPage, type Domain } from '../domain';

const RechargePage = lazyPage(() => import('./RechargePage'), 'RechargePage');
const CardRecordsPage = lazyPage(() => import('./RecordsPage'), 'CardRecordsPage');
const PointsRecordsPage = lazyPage(() => import('./RecordsPage'), 'PointsRecordsPage');
const UsdtRecordsPage = lazyPage(() => import('./RecordsPage'), 'UsdtRecordsPage');
const SwapPage = lazyPage(() => import('./SwapPage'), 'SwapPage');
const PointsTransferPage = lazyPage(() => import('./TransferPage'), 'PointsTransferPage');
const TransferPage = lazyPage(() => import('./TransferPage'), 'TransferPage');
const WalletPage = lazyPage(() => import('./WalletPage'), 'WalletPage');
const WithdrawPage = lazyPage(() => import('./WithdrawPage'), 'WithdrawPage');
const AddressesPage = lazyPage(() => import('./AddressesPage'), 'AddressesPage');

/** The custodial wallet (`/profile/wallet` and its sub-routes). `/profile/wallet/exchange` converts between assets: "swap" in code. */
export const wallet = {
  routes: [
    { path: '/profile/wallet', titleKey: 'page.wallet', Component: WalletPage },
    { path: '/profile/wallet/recharge', titleKey: 'page.recharge', Component: RechargePage },
    { path: '/profile/wallet/withdraw', titleKey: 'page.withdraw', Component: WithdrawPage },
    { path: '/profile/wallet/addresses', titleKey: 'page.withdrawAddresses', Component: AddressesPage },
    { path: '/profile/wallet/transfer', titleKey: 'page.transfer', Component: TransferPage },
    { path: '/profile/wallet/exchange', titleKey: 'page.swap', Component: SwapPage },
    { path: '/profile/wallet/points-transfer', titleKey: 'page.pointsTransfer', Component: PointsTransferPage },
    { path: '/profile/wallet/usdt-records', titleKey: 'page.usdtRecords', Component: UsdtRecordsPage },
    { path: '/profile/wallet/card-records', titleKey: 'page.cardRecords', Component: CardRecordsPage },
    { path: '/profile/wallet/points-records', titleKey: 'page.pointsRecords', Component: PointsRecordsPage },
  ],
  menu: [{ to: '/profile/wallet', labelKey: 'page.wallet', icon: createElement(AccountBalanceWalletIcon), place: 'more', order: 70 }],
} satisfies Domain;
