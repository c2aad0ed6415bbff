/** The wallet pages of spec section 2 (`/profile/wallet` and its sub-routes), as the route table imports them. */
export { WalletPage } from './WalletPage';
export { RechargePage } from './RechargePage';
export { WithdrawPage } from './WithdrawPage';
export { TransferPage, PointsTransferPage } from './TransferPage';
/** `/profile/wallet/exchange`: conversion between assets, called "swap" in code (design section 2). */
export { SwapPage } from './SwapPage';
export { UsdtRecordsPage, CardRecordsPage, PointsRecordsPage } from './RecordsPage';
