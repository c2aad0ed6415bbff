import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import { List, ListSubheader } from '@mui/material';
import { Menu, usePermissions, useSidebarState, useTranslate } from 'react-admin';
import type { MenuEntry } from '../domain';

/** The tab a path belongs to (by its first segment), or null for pages outside the tabs (/exchange, /article). */
export const tabOf = (pathname: string, tabs: readonly MenuEntry[]): string | null => {
  const first = pathname.split('/')[1] ?? '';
  return tabs.find((tab) => tab.to === `/${first}`)?.to ?? null;
};

/** The "Operator console" group of the side menu (the phone's menu drawer too): the entries the identity's role may see, or nothing. */
export const OperatorMenuGroup = ({ entries }: { entries: readonly MenuEntry[] }) => {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const [open] = useSidebarState();
  const shown = entries.filter((entry) => entry.role === undefined || entry.role === permissions);
  if (shown.length === 0) return null;
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
      {shown.map((item) => (
        <Menu.Item key={item.to} to={item.to} primaryText={translate(item.labelKey)} leftIcon={item.icon} />
      ))}
    </List>
  );
};
