import DownloadIcon from '@mui/icons-material/Download';
import EditNoteIcon from '@mui/icons-material/EditNote';
import HistoryIcon from '@mui/icons-material/History';
import MilitaryTechIcon from '@mui/icons-material/MilitaryTech';
import NotificationsOffIcon from '@mui/icons-material/NotificationsOffOutlined';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeartOutlined';
import PeopleIcon from '@mui/icons-material/People';
import SettingsIcon from '@mui/icons-material/Settings';
import UploadIcon from '@mui/icons-material/Upload';
import { createElement } from 'react';
import type { Domain, MenuEntry } from '../domain';
import { OPERATOR_ROLE } from './loadConsole';

const entry = (to: string, labelKey: string, icon: typeof PeopleIcon, order: number): MenuEntry => ({ to, labelKey, icon: createElement(icon), place: 'operator', order, role: OPERATOR_ROLE });

/** The operator console: its resources, pages and texts load by role (loadConsole.ts); here its menu group (its texts are the frame's). */
export const admin = {
  menu: [
    entry('/admin/users', 'admin.users.title', PeopleIcon, 110),
    entry('/admin/deposits', 'admin.deposits.title', DownloadIcon, 120),
    entry('/admin/withdrawals', 'admin.withdrawals.title', UploadIcon, 130),
    entry('/admin/articles', 'admin.articles.title', EditNoteIcon, 140),
    entry('/admin/levels', 'admin.levels.title', MilitaryTechIcon, 150),
    entry('/admin/settings', 'admin.settings.title', SettingsIcon, 160),
    entry('/admin/audit', 'admin.audit.title', HistoryIcon, 170),
    entry('/admin/notification-deliveries', 'admin.deliveries.title', NotificationsOffIcon, 175),
    entry('/admin/engine', 'admin.engine.title', MonitorHeartIcon, 180),
  ],
} satisfies Domain;

export { OPERATOR_ROLE, operatorConsole } from './loadConsole';
