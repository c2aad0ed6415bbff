import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import { createElement } from 'react';
import { lazyPage, type Domain } from '../domain';

const ChannelsPage = lazyPage(() => import('./ChannelsPage'), 'ChannelsPage');

/** Where notifications reach the user outside the app: Telegram, this browser's web push, a signed webhook (issue 25). */
export const notifyChannels = {
  routes: [{ path: '/profile/notification-channels', titleKey: 'page.notifyChannels', Component: ChannelsPage }],
  menu: [{ to: '/profile/notification-channels', labelKey: 'page.notifyChannels', icon: createElement(NotificationsActiveIcon), place: 'more', order: 75 }],
} satisfies Domain;
