import type { LocaleCode } from '../../api/types';

/** Texts of the article pages and the operator console. */
const enUS = {
  admin: {},
};

type Messages = typeof enUS;

const zhCN: Messages = {
  admin: {},
};

const zhTW: Messages = {
  admin: {},
};

export const adminMessages: Record<LocaleCode, Messages> = { 'zh-CN': zhCN, 'en-US': enUS, 'zh-TW': zhTW };
