import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import ArticleIcon from '@mui/icons-material/Article';
import AutoGraphIcon from '@mui/icons-material/AutoGraph';
import DownloadIcon from '@mui/icons-material/Download';
import EditNoteIcon from '@mui/icons-material/EditNote';
import HistoryIcon from '@mui/icons-material/History';
import HomeIcon from '@mui/icons-material/Home';
import KeyIcon from '@mui/icons-material/Key';
import PeopleIcon from '@mui/icons-material/People';
import PersonIcon from '@mui/icons-material/Person';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SettingsIcon from '@mui/icons-material/Settings';
import TuneIcon from '@mui/icons-material/Tune';
import UploadIcon from '@mui/icons-material/Upload';
import { List, ListSubheader } from '@mui/material';
import type { ReactElement } from 'react';
import { Menu, usePermissions, useSidebarState, useTranslate } from 'react-admin';
import { OPERATOR_ROLE } from '../admin/loadConsole';

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

/** The operator console's entries (its resources and the settings page), for operators only. */
export const OPERATOR_ITEMS: readonly NavItem[] = [
  { to: '/admin/users', labelKey: 'admin.users.title', icon: <PeopleIcon /> },
  { to: '/admin/deposits', labelKey: 'admin.deposits.title', icon: <DownloadIcon /> },
  { to: '/admin/withdrawals', labelKey: 'admin.withdrawals.title', icon: <UploadIcon /> },
  { to: '/admin/articles', labelKey: 'admin.articles.title', icon: <EditNoteIcon /> },
  { to: '/admin/settings', labelKey: 'admin.settings.title', icon: <SettingsIcon /> },
  { to: '/admin/audit', labelKey: 'admin.audit.title', icon: <HistoryIcon /> },
];

/** The "Operator console" group of the side menu (the phone's menu drawer too): nothing for other roles. */
export const OperatorMenuGroup = () => {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const [open] = useSidebarState();
  if (permissions !== OPERATOR_ROLE) return null;
  return (
    <List
      dense
      data-section="operator-menu"
      aria-label={translate('admin.console')}
      subheader={
        open ? (
          <ListSubheader disableSticky sx={{ bgcolor: 'transparent', lineHeight: 2.5, display: 'flex', alignItems: 'center', gap: 1 }}>
            <AdminPanelSettingsIcon fontSize="small" />
            {translate('admin.console')}
          </ListSubheader>
        ) : undefined
      }
    >
      {OPERATOR_ITEMS.map((item) => (
        <Menu.Item key={item.to} to={item.to} primaryText={translate(item.labelKey)} leftIcon={item.icon} />
      ))}
    </List>
  );
};
