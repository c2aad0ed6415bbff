import type { LocaleCode } from '../../api/types';

/** Texts of the profile pages: profile, edit, activation, member level, fuel, security, profit, invite, community. */
const enUS = {
  profile: {},
};

type Messages = typeof enUS;

const zhCN: Messages = {
  profile: {},
};

const zhTW: Messages = {
  profile: {},
};

export const profileMessages: Record<LocaleCode, Messages> = { 'zh-CN': zhCN, 'en-US': enUS, 'zh-TW': zhTW };
