import { addMessages } from '../i18n/i18nProvider';
import { messages as article } from './article/messages';
import { messages as backtest } from './backtest/messages';
import { messages as exchange } from './exchange/messages';
import { messages as home } from './home/messages';
import { messages as notifyChannels } from './notifyChannels/messages';
import { messages as profile } from './profile/messages';
import { messages as returns } from './returns/messages';
import { messages as strategy } from './strategy/messages';
import { messages as trade } from './trade/messages';
import { messages as wallet } from './wallet/messages';

/**
 * The texts of the signed-in areas, in all three languages: a chunk of their
 * own, loaded with the first signed-in page (App.tsx hands it to domain.ts
 * loadAreaTexts), since the guest pages need none of them. Their pages share
 * texts (the home page shows tasks, the trade wizard the backtest), so they
 * come as one.
 */
export const addAreaTexts = (): void => {
  for (const messages of [home, trade, strategy, backtest, exchange, wallet, profile, article, returns, notifyChannels]) addMessages(messages);
};
