import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import { List, ListSubheader } from '@mui/material';
import { Menu, usePermissions, useSidebarState, useTranslate } from 'react-admin';
import { OPERATOR_ROLE } from '../admin/loadConsole';
import type { MenuEntry } from '../domain';

/** The tab a path belongs to (by its first segment), or null for pages outside the tabs (/exchange, /article). */
export const tabOf = (pathname: string, tabs: readonly MenuEntry[]): string | null => {
  const first = pathname.split('/')[1] ?? '';
  return tabs.find((tab) => tab.to === `/${first}`)?.to ?? null;
};

/** The "Operator console" group of the side menu (the phone's menu drawer too): nothing for other roles. */
export const OperatorMenuGroup = ({ entries }: { entries: readonly MenuEntry[] }) => {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const [open] = useSidebarState();
  if (permissions !== OPERATOR_ROLE || entries.length === 0) return null;
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
      {entries.map((item) => (
        <Menu.Item key={item.to} to={item.to} primaryText={translate(item.labelKey)} leftIcon={item.icon} />
      ))}
    </List>
  );
};
