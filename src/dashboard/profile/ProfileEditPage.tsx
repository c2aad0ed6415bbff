import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Form, TextInput, regex, useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { User } from '../../api/types';
import { rules } from '../kit/forms';
import { isDemoEmail } from '../../api/demo';
import { DemoLocked } from '../kit/demo';
import { Screen } from '../layout/Screen';
import { AVATAR_MAX_BYTES, AvatarError, resizeAvatar } from './avatar';
import { QueryView } from '../kit/LoadError';
import { useApi, useMe, useRefreshIdentity } from './api';
import { UserAvatar } from './UserAvatar';

const nicknameRules = [...rules.nickname, regex(/^[^\u0000-\u001f<>]*$/, 'profile.edit.nicknameChars')];

const EditForm = ({ user }: { user: User }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const api = useApi();
  const refreshIdentity = useRefreshIdentity();
  const fileInput = useRef<HTMLInputElement>(null);
  const [avatar, setAvatar] = useState<string | null>(user.avatar);
  const [preparing, setPreparing] = useState(false);

  const save = useMutation({
    mutationFn: (values: { nickname: string }) => api.profileEdit({ nickname: values.nickname.trim(), avatar }),
    onSuccess: (updated) => {
      refreshIdentity(updated);
      notify(translate('profile.edit.saved'), { type: 'success' });
      navigate('/profile');
    },
    onError: (error) => notify(error instanceof Error ? error.message : translate('error.fallback'), { type: 'error' }),
  });

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setPreparing(true);
    try {
      setAvatar(await resizeAvatar(file));
    } catch (error) {
      const reason = error instanceof AvatarError ? error.reason : 'unreadable';
      notify(translate(`profile.edit.avatarError.${reason}`, { size: Math.round(AVATAR_MAX_BYTES / 1024) }), { type: 'error' });
    } finally {
      setPreparing(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <Form defaultValues={{ nickname: user.nickname }} onSubmit={(values: Record<string, unknown>) => save.mutate({ nickname: String(values.nickname ?? '') })} noValidate>
      <Stack spacing={2.5}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { xs: 'flex-start', sm: 'center' } }} data-section="avatar">
          <UserAvatar avatar={avatar} nickname={user.nickname} email={user.email} size={96} />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="subtitle2">{translate('profile.edit.avatar')}</Typography>
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
              {translate('profile.edit.avatarHint')}
            </Typography>
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
              <Button variant="outlined" component="label" startIcon={<PhotoCameraIcon />} disabled={preparing}>
                {translate(preparing ? 'profile.edit.preparing' : 'profile.edit.chooseAvatar')}
                <input
                  ref={fileInput}
                  hidden
                  type="file"
                  accept="image/png,image/jpeg,image/webp,image/gif"
                  aria-label={translate('profile.edit.chooseAvatar')}
                  onChange={(event) => void choose(event.target.files?.[0])}
                />
              </Button>
              {avatar && (
                <Button color="error" startIcon={<DeleteIcon />} onClick={() => setAvatar(null)}>
                  {translate('profile.edit.removeAvatar')}
                </Button>
              )}
            </Stack>
          </Box>
        </Stack>
        <TextInput
          source="nickname"
          autoComplete="nickname"
          label={translate('auth.nickname')}
          validate={nicknameRules}
          helperText={translate('auth.nicknameHelp')}
          fullWidth
        />
        <Stack direction="row" spacing={1.5}>
          <Button type="submit" variant="contained" disabled={save.isPending || preparing}>
            {translate('profile.edit.save')}
          </Button>
          <Button onClick={() => navigate('/profile')}>{translate('profile.cancel')}</Button>
        </Stack>
      </Stack>
    </Form>
  );
};

/** `/profile/edit`: nickname and avatar. */
export const ProfileEditPage = () => {
  const me = useMe();
  return (
    <Screen titleKey="page.profileEdit">
      <Paper sx={{ p: { xs: 2, md: 3 }, maxWidth: 560 }}>
        <QueryView query={me} skeletons={2} height={72}>
          {/* Every visitor of the shared demo sees its nickname and avatar: nobody changes them for the others. */}
          {(user) => (isDemoEmail(user.email) ? <DemoLocked /> : <EditForm user={user} />)}
        </QueryView>
      </Paper>
    </Screen>
  );
};
