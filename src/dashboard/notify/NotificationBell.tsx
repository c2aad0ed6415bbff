import NotificationsIcon from '@mui/icons-material/Notifications';
import { Badge, IconButton, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useUnreadCount } from './api';

/** The bell of the app bar: the unread count; it opens the inbox. */
export const NotificationBell = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const count = useUnreadCount().data?.count ?? 0;
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
