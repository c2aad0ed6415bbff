import { BottomNavigation, BottomNavigationAction, Paper, useMediaQuery, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import { AppBar, Layout, LoadingIndicator, Menu, TitlePortal, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { SessionExpiryRedirect } from '../../authProvider/guards';
import { WizardRouteWatcher } from '../trade/wizard/navigation';
import { LocaleSwitcher } from './LocaleSwitcher';
import { MORE, OperatorMenuGroup, TABS, tabOf } from './navigation';

const AppMenu = () => {
  const translate = useTranslate();
  return (
    <Menu>
      {[...TABS, ...MORE].map((item) => (
        <Menu.Item key={item.to} to={item.to} primaryText={translate(item.labelKey)} leftIcon={item.icon} />
      ))}
      <OperatorMenuGroup />
    </Menu>
  );
};

const AppAppBar = () => (
  <AppBar
    toolbar={
      <>
        <LocaleSwitcher compact />
        <LoadingIndicator />
      </>
    }
  >
    <TitlePortal />
  </AppBar>
);

const BottomTabs = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <Paper
      elevation={8}
      sx={{ position: 'fixed', left: 0, right: 0, bottom: 0, zIndex: (theme) => theme.zIndex.appBar, pb: 'env(safe-area-inset-bottom)' }}
    >
      <BottomNavigation showLabels value={tabOf(pathname) ?? false} onChange={(_, to: string) => navigate(to)} component="nav">
        {TABS.map((tab) => (
          <BottomNavigationAction key={tab.to} value={tab.to} label={translate(tab.labelKey)} icon={tab.icon} />
        ))}
      </BottomNavigation>
    </Paper>
  );
};

/** Main layout: side menu on desktop, bottom tab bar at phone widths. */
export const AppLayout = ({ children }: { children: ReactNode }) => {
  const isPhone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  return (
    <Layout appBar={AppAppBar} menu={AppMenu} sx={{
        // react-admin sizes the layout to its widest content; pages scroll their own wide parts (tables) instead.
        minWidth: 0,
        '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar': { minWidth: 0 },
        '& .RaLayout-content': { minWidth: 0, ...(isPhone ? { pb: 9 } : {}) },
      }}>
      <WizardRouteWatcher />
      <SessionExpiryRedirect />
      {children}
      {isPhone && <BottomTabs />}
    </Layout>
  );
};
