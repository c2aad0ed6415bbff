import { BottomNavigation, BottomNavigationAction, Paper, useMediaQuery, type Theme } from '@mui/material';
import type { ComponentType, ReactNode } from 'react';
import { AppBar, Layout, LoadingIndicator, Menu, TitlePortal, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { SessionExpiryRedirect } from '../../authProvider/guards';
import { DemoBanner } from '../kit/demo';
import { useIsPhone } from '../kit/responsive';
import { DisplayMenu } from './DisplayMenu';
import { LocaleSwitcher } from './LocaleSwitcher';
import type { MenuEntry } from '../domain';
import { OperatorMenuGroup, tabOf } from './navigation';

interface Entries {
  tabs: readonly MenuEntry[];
  more: readonly MenuEntry[];
  operator: readonly MenuEntry[];
}

const AppMenu = ({ tabs, more, operator }: Entries) => {
  const translate = useTranslate();
  return (
    <Menu>
      {[...tabs, ...more].map((item) => (
        <Menu.Item key={item.to} to={item.to} primaryText={translate(item.labelKey)} leftIcon={item.icon} />
      ))}
      <OperatorMenuGroup entries={operator} />
    </Menu>
  );
};

/**
 * The app bar: the areas' items (the notifications bell), the language, the
 * display and the refresh button. On a phone the refresh button gives its
 * room to the title (the browser's own reload stands in for it; the pages
 * refetch when shown again).
 */
const AppAppBar = ({ items }: { items: readonly ComponentType[] }) => {
  const isPhone = useIsPhone();
  return (
    <AppBar
      toolbar={
        <>
          {items.map((Item, index) => (
            <Item key={index} />
          ))}
          <LocaleSwitcher compact />
          <DisplayMenu />
          {!isPhone && <LoadingIndicator />}
        </>
      }
    >
      {/* On a phone the icons leave little room: a long title (English) takes two smaller lines instead of being cut. */}
      <TitlePortal
        sx={{
          whiteSpace: { xs: 'normal', sm: 'nowrap' },
          fontSize: { xs: '1rem', sm: '1.25rem' },
          lineHeight: { xs: 1.2, sm: 1.6 },
          overflowWrap: 'break-word',
          minWidth: 0,
        }}
      />
    </AppBar>
  );
};

const BottomTabs = ({ tabs }: { tabs: readonly MenuEntry[] }) => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <Paper
      elevation={8}
      sx={{ position: 'fixed', left: 0, right: 0, bottom: 0, zIndex: (theme) => theme.zIndex.appBar, pb: 'env(safe-area-inset-bottom)' }}
    >
      <BottomNavigation showLabels value={tabOf(pathname, tabs) ?? false} onChange={(_, to: string) => navigate(to)} component="nav">
        {tabs.map((tab) => (
          <BottomNavigationAction key={tab.to} value={tab.to} label={translate(tab.labelKey)} icon={tab.icon} />
        ))}
      </BottomNavigation>
    </Paper>
  );
};

/**
 * The main layout for the areas' menu entries, route watchers and app bar parts (App.tsx
 * composes them): the four tabs and the further entries in a side menu on
 * desktop, the tabs in a bottom bar at phone widths, and the operator
 * console's group by role.
 */
export const appLayout = (menu: readonly MenuEntry[], watchers: readonly ComponentType[] = [], appBarItems: readonly ComponentType[] = []) => {
  const byOrder = [...menu].sort((a, b) => a.order - b.order);
  const entries: Entries = {
    tabs: byOrder.filter((entry) => entry.place === 'tab'),
    more: byOrder.filter((entry) => entry.place === 'more'),
    operator: byOrder.filter((entry) => entry.place === 'operator'),
  };
  const SideMenu = () => <AppMenu {...entries} />;
  const TopBar = () => <AppAppBar items={appBarItems} />;
  const AppLayout = ({ children }: { children: ReactNode }) => {
    const isPhone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
    return (
      <Layout
        appBar={TopBar}
        menu={SideMenu}
        sx={{
          // react-admin sizes the layout to its widest content; pages scroll their own wide parts (tables) instead.
          minWidth: 0,
          '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar': { minWidth: 0 },
          '& .RaLayout-content': { minWidth: 0, ...(isPhone ? { pb: 9 } : {}) },
          // react-admin pins a form's toolbar to the bottom on phones: above the tab bar, not under it.
          ...(isPhone ? { '& .RaToolbar-mobileToolbar.RaToolbar-mobileToolbar': { bottom: 'calc(56px + env(safe-area-inset-bottom))' } } : {}),
        }}
      >
        {watchers.map((Watcher, index) => (
          <Watcher key={index} />
        ))}
        <SessionExpiryRedirect />
        <DemoBanner />
        {children}
        {isPhone && <BottomTabs tabs={entries.tabs} />}
      </Layout>
    );
  };
  return AppLayout;
};
