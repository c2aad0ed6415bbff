import { Avatar } from '@mui/material';

/** Up to two letters of the nickname (or the email) when there is no picture. */
export const initialsOf = (nickname: string, email = '') => {
  const source = nickname.trim() || email.trim();
  const words = source.split(/\s+/).filter(Boolean);
  if (words.length >= 2 && /^[A-Za-z]/.test(words[0]!) && /^[A-Za-z]/.test(words[1]!)) return (words[0]![0]! + words[1]![0]!).toUpperCase();
  return [...source].slice(0, /^[A-Za-z0-9]/.test(source) ? 2 : 1).join('').toUpperCase() || '?';
};

export const UserAvatar = ({ avatar, nickname, email, size = 56 }: { avatar: string | null | undefined; nickname: string; email?: string; size?: number }) =>
  avatar ? (
    <Avatar src={avatar} alt={nickname} sx={{ width: size, height: size }} data-avatar="image" />
  ) : (
    <Avatar sx={{ width: size, height: size, bgcolor: 'primary.main', fontSize: size * 0.4, fontWeight: 600 }} data-avatar="initials" aria-hidden="true">
      {initialsOf(nickname, email)}
    </Avatar>
  );
