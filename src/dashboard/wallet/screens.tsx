import { placeholderScreen } from '../layout/Screen';

export const WalletPage = placeholderScreen('page.wallet');
export const RechargePage = placeholderScreen('page.recharge');
export const WithdrawPage = placeholderScreen('page.withdraw');
export const TransferPage = placeholderScreen('page.transfer');
/** `/profile/wallet/exchange`: conversion between assets, called "swap" in code (design section 2). */
export const SwapPage = placeholderScreen('page.swap');
export const PointsTransferPage = placeholderScreen('page.pointsTransfer');
export const UsdtRecordsPage = placeholderScreen('page.usdtRecords');
export const CardRecordsPage = placeholderScreen('page.cardRecords');
export const PointsRecordsPage = placeholderScreen('page.pointsRecords');
