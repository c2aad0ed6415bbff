import NotificationsIcon from '@mui/icons-material/Notifications';
import { Badge, IconButton, Tooltip } from '@mui/material';
import { useGetIdentity, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useUnreadCount } from './api';
import { useLiveNotifications, useNotifyPollMs } from './liveNotifications';

/** The bell of the app bar: the unread count; it opens the inbox. */
export const NotificationBell = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { identity } = useGetIdentity();
  // The bell is on every page of a signed-in user: it keeps the page's one live stream.
  useLiveNotifications(identity !== undefined);
  const count = useUnreadCount(useNotifyPollMs()).data?.count ?? 0;
  const label = translate('notify.bell', { count });
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" aria-label={label} onClick={() => navigate('/notifications')}>
        <Badge badgeContent={count} color="error" max={99}>
          <NotificationsIcon />
        </Badge>
      </IconButton>
    </Tooltip>
  );
};
