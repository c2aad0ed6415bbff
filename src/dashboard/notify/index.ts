import { lazyPage, type Domain } from '../domain';
import { messages } from './messages';
import { NotificationBell } from './NotificationBell';

const NotificationsPage = lazyPage(() => import('./NotificationsPage'), 'NotificationsPage');

/** Notifications: the bell in the app bar (unread count), the inbox and the preferences (`/notifications`). */
export const notify = {
  routes: [{ path: '/notifications', titleKey: 'page.notifications', Component: NotificationsPage }],
  appBar: [NotificationBell],
  messages,
} satisfies Domain;
