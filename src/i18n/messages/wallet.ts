import type { LocaleCode } from '../../api/types';

/** Texts of the wallet pages (/profile/wallet and its sub-routes). */
const enUS = {
  wallet: {},
};

type Messages = typeof enUS;

const zhCN: Messages = {
  wallet: {},
};

const zhTW: Messages = {
  wallet: {},
};

export const walletMessages: Record<LocaleCode, Messages> = { 'zh-CN': zhCN, 'en-US': enUS, 'zh-TW': zhTW };
