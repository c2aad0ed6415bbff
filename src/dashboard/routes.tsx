import type { ComponentType } from 'react';
import { ArticleDetailPage, ArticleListPage } from './article/screens';
import { LoginPage } from './auth/LoginPage';
import { ForgotPasswordPage } from './auth/ForgotPasswordPage';
import { RegisterPage } from './auth/RegisterPage';
import { ExchangeConfigPage } from './exchange/ExchangeConfigPage';
import { ExchangeListPage } from './exchange/ExchangeListPage';
import { HomePage } from './home/HomePage';
import {
  ActivatePage,
  CommunityPage,
  DailyProfitDetailPage,
  FuelPage,
  InvitePage,
  MemberLevelPage,
  ProfileEditPage,
  ProfilePage,
  ProfitDetailPage,
  ProfitRankPage,
  SecurityPage,
} from './profile/screens';
import { StrategyEditPage } from './strategy/StrategyEditPage';
import { StrategyListPage } from './strategy/StrategyListPage';
import { PairSelectPage } from './trade/PairSelectPage';
import { TradeAddPage } from './trade/TradeAddPage';
import { AllOrderHistoryPage, OrderHistoryRoute } from './trade/OrderHistoryPage';
import { TaskDetailPage } from './trade/TaskDetailPage';
import { TaskListPage } from './trade/TaskListPage';
import {
  CardRecordsPage,
  PointsRecordsPage,
  PointsTransferPage,
  RechargePage,
  SwapPage,
  TransferPage,
  UsdtRecordsPage,
  WalletPage,
  WithdrawPage,
} from './wallet/screens';

export interface AppRoute {
  path: string;
  titleKey: string;
  Component: ComponentType;
}

/** `/`: rendered through react-admin's dashboard slot (see App.tsx). */
export const homeRoute: AppRoute = { path: '/', titleKey: 'page.home', Component: HomePage };

/** Protected routes of spec section 2, at their exact paths, inside the main layout. */
export const protectedRoutes: readonly AppRoute[] = [
  { path: '/trade', titleKey: 'page.trade', Component: TaskListPage },
  { path: '/strategy', titleKey: 'page.strategy', Component: StrategyListPage },
  { path: '/profile', titleKey: 'page.profile', Component: ProfilePage },
  { path: '/article', titleKey: 'page.article', Component: ArticleListPage },
  { path: '/article/:id', titleKey: 'page.articleDetail', Component: ArticleDetailPage },
  { path: '/strategy/add', titleKey: 'page.strategyAdd', Component: StrategyEditPage },
  { path: '/strategy/edit/:id', titleKey: 'page.strategyEdit', Component: StrategyEditPage },
  { path: '/trade/add', titleKey: 'page.tradeAdd', Component: TradeAddPage },
  { path: '/trade/detail/:id', titleKey: 'page.tradeDetail', Component: TaskDetailPage },
  { path: '/trade/order-history', titleKey: 'page.orderHistory', Component: OrderHistoryRoute },
  { path: '/trade/all-order-history', titleKey: 'page.allOrderHistory', Component: AllOrderHistoryPage },
  { path: '/trade/pair-select', titleKey: 'page.pairSelect', Component: PairSelectPage },
  { path: '/exchange', titleKey: 'page.exchange', Component: ExchangeListPage },
  { path: '/exchange/add', titleKey: 'page.exchangeAdd', Component: ExchangeConfigPage },
  { path: '/exchange/edit/:id', titleKey: 'page.exchangeEdit', Component: ExchangeConfigPage },
  { path: '/profile/edit', titleKey: 'page.profileEdit', Component: ProfileEditPage },
  { path: '/profile/activate', titleKey: 'page.activate', Component: ActivatePage },
  { path: '/profile/member-level', titleKey: 'page.memberLevel', Component: MemberLevelPage },
  { path: '/profile/fuel', titleKey: 'page.fuel', Component: FuelPage },
  { path: '/profile/security', titleKey: 'page.security', Component: SecurityPage },
  { path: '/profile/profit-detail', titleKey: 'page.profitDetail', Component: ProfitDetailPage },
  { path: '/profile/daily-profit-detail/:date', titleKey: 'page.dailyProfitDetail', Component: DailyProfitDetailPage },
  { path: '/profile/profit-rank', titleKey: 'page.profitRank', Component: ProfitRankPage },
  { path: '/profile/invite', titleKey: 'page.invite', Component: InvitePage },
  { path: '/profile/community', titleKey: 'page.community', Component: CommunityPage },
  { path: '/profile/wallet', titleKey: 'page.wallet', Component: WalletPage },
  { path: '/profile/wallet/recharge', titleKey: 'page.recharge', Component: RechargePage },
  { path: '/profile/wallet/withdraw', titleKey: 'page.withdraw', Component: WithdrawPage },
  { path: '/profile/wallet/transfer', titleKey: 'page.transfer', Component: TransferPage },
  { path: '/profile/wallet/exchange', titleKey: 'page.swap', Component: SwapPage },
  { path: '/profile/wallet/points-transfer', titleKey: 'page.pointsTransfer', Component: PointsTransferPage },
  { path: '/profile/wallet/usdt-records', titleKey: 'page.usdtRecords', Component: UsdtRecordsPage },
  { path: '/profile/wallet/card-records', titleKey: 'page.cardRecords', Component: CardRecordsPage },
  { path: '/profile/wallet/points-records', titleKey: 'page.pointsRecords', Component: PointsRecordsPage },
];

/** Guest-only routes (requiresGuest), in the separate auth layout. */
export const guestRoutes: readonly AppRoute[] = [
  { path: '/auth/login', titleKey: 'page.login', Component: LoginPage },
  { path: '/auth/register', titleKey: 'page.register', Component: RegisterPage },
  { path: '/auth/forgot-password', titleKey: 'page.forgotPassword', Component: ForgotPasswordPage },
];
