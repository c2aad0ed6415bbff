/** The profile area's pages, by the names the route table imports. */
export { ActivatePage } from './ActivatePage';
export { CommunityPage } from './CommunityPage';
export { FuelPage } from './FuelPage';
export { InvitePage } from './InvitePage';
export { MemberLevelPage } from './MemberLevelPage';
export { ProfileEditPage } from './ProfileEditPage';
export { ProfilePage } from './ProfilePage';
export { DailyProfitDetailPage, ProfitDetailPage, ProfitRankPage } from './ProfitPages';
export { SecurityPage } from './SecurityPage';
