import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import ArticleIcon from '@mui/icons-material/Article';
import AutoGraphIcon from '@mui/icons-material/AutoGraph';
import HomeIcon from '@mui/icons-material/Home';
import KeyIcon from '@mui/icons-material/Key';
import PersonIcon from '@mui/icons-material/Person';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import TuneIcon from '@mui/icons-material/Tune';
import type { ReactElement } from 'react';

export interface NavItem {
  to: string;
  labelKey: string;
  icon: ReactElement;
}

/** The four tabs of the main layout (spec section 2): bottom bar on phones, side menu on desktop. */
export const TABS: readonly NavItem[] = [
  { to: '/', labelKey: 'nav.home', icon: <HomeIcon /> },
  { to: '/trade', labelKey: 'nav.trade', icon: <AutoGraphIcon /> },
  { to: '/strategy', labelKey: 'nav.strategy', icon: <TuneIcon /> },
  { to: '/profile', labelKey: 'nav.profile', icon: <PersonIcon /> },
];

/** Further entries of the desktop side menu. */
export const MORE: readonly NavItem[] = [
  { to: '/exchange', labelKey: 'page.exchange', icon: <KeyIcon /> },
  { to: '/trade/all-order-history', labelKey: 'page.allOrderHistory', icon: <ReceiptLongIcon /> },
  { to: '/profile/wallet', labelKey: 'page.wallet', icon: <AccountBalanceWalletIcon /> },
  { to: '/article', labelKey: 'page.article', icon: <ArticleIcon /> },
];

/** The tab a path belongs to (by its first segment), or null for pages outside the four tabs (/exchange, /article). */
export const tabOf = (pathname: string): string | null => {
  const first = pathname.split('/')[1] ?? '';
  return TABS.find((tab) => tab.to === `/${first}`)?.to ?? null;
};
