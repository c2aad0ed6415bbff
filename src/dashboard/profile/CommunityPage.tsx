import PersonAddIcon from '@mui/icons-material/PersonAdd';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import { Box, Button, Chip, Pagination, Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { CommunityMember } from '../../api/member';
import { Screen } from '../layout/Screen';
import { EmptyLine, QueryView } from '../kit/LoadError';
import { Section } from '../kit/Section';
import { Stat, statGrid } from '../kit/Stat';
import { useCommunity } from './api';
import { formatDate, formatDateTime } from './format';

export const COMMUNITY_PAGE_SIZE = 20;
type Scope = 'direct' | 'team';

const MemberCard = ({ member }: { member: CommunityMember }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Paper variant="outlined" sx={{ p: 1.5, minWidth: 0 }} data-member={member.id}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
        <Typography sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' }}>{member.nickname}</Typography>
        <Chip size="small" label={translate('profile.levelName', { level: member.level })} />
        {member.activated ? (
          <Chip size="small" color="success" variant="outlined" icon={<VerifiedUserIcon />} label={translate('profile.activated')} />
        ) : (
          <Chip size="small" variant="outlined" label={translate('profile.notActivated')} />
        )}
        <Chip size="small" variant="outlined" color={member.depth === 1 ? 'primary' : 'default'} label={translate(member.depth === 1 ? 'profile.community.directBadge' : 'profile.community.depth', { depth: member.depth })} />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere', mb: 1 }}>
        {member.email}
      </Typography>
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' }}>
        <Stat label={translate('profile.community.running')} value={member.runningTasks} />
        <Stat label={translate('profile.community.joined')} value={formatDate(member.joinedAt, locale)} />
        <Stat label={translate('profile.community.lastActive')} value={member.lastActiveAt ? formatDateTime(member.lastActiveAt, locale) : '—'} />
      </Box>
    </Paper>
  );
};

/** `/profile/community`: the people I invited (direct) and theirs (the whole team). */
export const CommunityPage = () => {
  const translate = useTranslate();
  const [scope, setScope] = useState<Scope>('direct');
  const [page, setPage] = useState(1);
  const members = useCommunity({ scope, page, pageSize: COMMUNITY_PAGE_SIZE });
  const pages = Math.max(1, Math.ceil((members.data?.total ?? 0) / COMMUNITY_PAGE_SIZE));
  return (
    <Screen titleKey="page.community">
      <Stack spacing={2}>
        {members.data && (
          <Section name="counts">
            <Box sx={statGrid(2)}>
              <Stat name="direct" label={translate('profile.community.directCount')} value={members.data.direct} />
              <Stat name="team" label={translate('profile.community.teamCount')} value={members.data.team} />
            </Box>
          </Section>
        )}
        <Tabs
          value={scope}
          variant="fullWidth"
          onChange={(_, next: Scope) => {
            setScope(next);
            setPage(1);
          }}
        >
          <Tab value="direct" label={translate('profile.community.direct')} />
          <Tab value="team" label={translate('profile.community.team')} />
        </Tabs>
        <QueryView query={members} skeletons={3} height={110}>
          {(data) =>
            data.list.length === 0 ? (
              <Paper>
                <EmptyLine text={translate(scope === 'direct' ? 'profile.community.emptyDirect' : 'profile.community.emptyTeam')}>
                  <Button component={Link} to="/profile/invite" variant="contained" startIcon={<PersonAddIcon />} sx={{ mt: 2 }}>
                    {translate('page.invite')}
                  </Button>
                </EmptyLine>
              </Paper>
            ) : (
              <>
                <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }} data-scope={scope} aria-busy={members.isPlaceholderData}>
                  {data.list.map((member) => (
                    <MemberCard key={member.id} member={member} />
                  ))}
                </Box>
                {pages > 1 && (
                  <Stack sx={{ alignItems: 'center' }}>
                    <Pagination count={pages} page={page} onChange={(_, next) => setPage(next)} size="small" siblingCount={0} />
                  </Stack>
                )}
              </>
            )
          }
        </QueryView>
      </Stack>
    </Screen>
  );
};
