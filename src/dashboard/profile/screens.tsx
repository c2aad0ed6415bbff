import { useParams } from 'react-router-dom';
import { ComingSoon, Screen, placeholderScreen } from '../layout/Screen';

export const ProfilePage = placeholderScreen('page.profile', { back: false });
export const ProfileEditPage = placeholderScreen('page.profileEdit');
export const ActivatePage = placeholderScreen('page.activate');
export const MemberLevelPage = placeholderScreen('page.memberLevel');
export const FuelPage = placeholderScreen('page.fuel');
export const SecurityPage = placeholderScreen('page.security');
export const ProfitDetailPage = placeholderScreen('page.profitDetail');
export const ProfitRankPage = placeholderScreen('page.profitRank');
export const InvitePage = placeholderScreen('page.invite');
export const CommunityPage = placeholderScreen('page.community');

export const DailyProfitDetailPage = () => {
  const { date = '' } = useParams();
  return (
    <Screen titleKey="page.dailyProfitDetail" titleOptions={{ date }}>
      <ComingSoon />
    </Screen>
  );
};
