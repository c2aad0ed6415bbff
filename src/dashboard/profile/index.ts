import PersonIcon from '@mui/icons-material/Person';
import { createElement } from 'react';
import { lazyPage, type Domain } from '../domain';

const ActivatePage = lazyPage(() => import('./ActivatePage'), 'ActivatePage');
const CommunityPage = lazyPage(() => import('./CommunityPage'), 'CommunityPage');
const FuelPage = lazyPage(() => import('./FuelPage'), 'FuelPage');
const InvitePage = lazyPage(() => import('./InvitePage'), 'InvitePage');
const MemberLevelPage = lazyPage(() => import('./MemberLevelPage'), 'MemberLevelPage');
const ProfileEditPage = lazyPage(() => import('./ProfileEditPage'), 'ProfileEditPage');
const ProfilePage = lazyPage(() => import('./ProfilePage'), 'ProfilePage');
const DailyProfitDetailPage = lazyPage(() => import('./ProfitPages'), 'DailyProfitDetailPage');
const ProfitDetailPage = lazyPage(() => import('./ProfitPages'), 'ProfitDetailPage', ['MonthPosterButton']);
const ProfitRankPage = lazyPage(() => import('./ProfitPages'), 'ProfitRankPage', ['MonthPosterButton']);
const SecurityPage = lazyPage(() => import('./SecurityPage'), 'SecurityPage');

/** The profile area: who I am, activation, level, fuel, security, profit, invites and community. */
export const profile = {
  routes: [
    { path: '/profile', titleKey: 'page.profile', Component: ProfilePage },
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
  ],
  menu: [{ to: '/profile', labelKey: 'nav.profile', icon: createElement(PersonIcon), place: 'tab', order: 40 }],
} satisfies Domain;
