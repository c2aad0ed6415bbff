import { ASSET_DECIMALS, formatAsset, formatMoney, formatPrice, formatQuantity } from './format';
import type { Asset } from './wallet';

/**
 * A notification's figures in the one number format of its reader's
 * language, for the texts of the inbox, the e-mails, Telegram and web push
 * (the payload keeps the exact decimal strings). The texts put the unit
 * after them: USDT or the asset, and '%' after the ROI, a percentage.
 */
export const notificationFigures = (payload: Record<string, unknown>, locale: string): Record<string, string> => {
  const figures: Record<string, string> = {};
  const value = (name: string) => {
    const raw = payload[name];
    return typeof raw === 'string' || typeof raw === 'number' ? String(raw) : null;
  };
  const asset = value('asset');
  const amount = value('amount');
  if (amount !== null) figures['amount'] = asset !== null && asset in ASSET_DECIMALS ? formatAsset(amount, asset as Asset, locale) : formatMoney(amount, locale);
  const price = value('price');
  if (price !== null) figures['price'] = formatPrice(price, locale);
  const quantity = value('quantity');
  if (quantity !== null) figures['quantity'] = formatQuantity(quantity, locale);
  const profit = value('profit');
  if (profit !== null) figures['profit'] = formatMoney(profit, locale, { signed: true });
  const roi = value('roi');
  if (roi !== null) figures['roi'] = formatMoney(roi, locale, { signed: true });
  return figures;
};
