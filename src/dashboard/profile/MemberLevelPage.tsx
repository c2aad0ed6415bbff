import { formatPercent } from '../../api/format';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { Box, Chip, LinearProgress, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import Big from 'big.js';
import { useLocaleState, useTranslate } from 'react-admin';
import type { MemberLevel, MemberStatus } from '../../api/member';
import { Screen } from '../layout/Screen';
import { formatQuote } from '../kit/money';
import { LevelBadge } from './ProfilePage';
import { EmptyLine, QueryView } from '../kit/LoadError';
import { Section } from '../kit/Section';
import { Stat, statGrid } from '../kit/Stat';
import { useMemberStatus } from './api';

/** Percent of a requirement reached, 0..100 (a requirement of 0 is met). */
export const progressPercent = (current: string | number, required: string | number): number => {
  try {
    const need = new Big(required);
    if (need.lte(0)) return 100;
    const ratio = new Big(current).div(need).times(100);
    return Math.max(0, Math.min(100, Number(ratio.toFixed(1))));
  } catch {
    return 0;
  }
};

const Progress = ({ name, label, current, required, percent }: { name: string; label: string; current: string; required: string; percent: number }) => (
    <Box sx={{ minWidth: 0 }} data-progress={name} data-percent={percent}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 1, mb: 0.5 }}>
        <Typography variant="body2">{label}</Typography>
        <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 600 }}>
          {current} / {required}
        </Typography>
      </Stack>
      <LinearProgress variant="determinate" value={percent} color={percent >= 100 ? 'success' : 'primary'} sx={{ height: 8, borderRadius: 4 }} aria-label={label} />
    </Box>
);

const NextLevel = ({ status }: { status: MemberStatus }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!status.next) {
    return (
      <Section name="next" title={translate('profile.member.next')}>
        <Typography color="text.secondary">{translate('profile.member.top')}</Typography>
      </Section>
    );
  }
  const { level, direct, team, teamVolume } = status.next;
  return (
    <Section name="next" title={translate('profile.member.toLevel', { level: level.level })}>
      <Stack spacing={2}>
        <Progress name="direct" label={translate('profile.member.direct')} current={String(direct)} required={String(level.minDirect)} percent={progressPercent(direct, level.minDirect)} />
        <Progress name="team" label={translate('profile.member.team')} current={String(team)} required={String(level.minTeam)} percent={progressPercent(team, level.minTeam)} />
        <Progress
          name="teamVolume"
          label={translate('profile.member.teamVolume')}
          current={formatQuote(teamVolume, locale)}
          required={formatQuote(level.minTeamVolume, locale)}
          percent={progressPercent(teamVolume, level.minTeamVolume)}
        />
      </Stack>
    </Section>
  );
};

const discountText = (level: MemberLevel, locale: string, translate: (key: string, options?: object) => string) =>
  Number(level.fuelDiscountPercent) > 0 ? formatPercent(level.fuelDiscountPercent, locale) : translate('profile.member.none');

const Levels = ({ status }: { status: MemberStatus }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (status.levels.length === 0) return <EmptyLine text={translate('profile.member.noLevels')} />;
  const current = (level: MemberLevel) => level.level === status.level;
  const volume = (level: MemberLevel) => `${formatQuote(level.minTeamVolume, locale)} USDT`;
  return (
    <Section name="levels" title={translate('profile.member.levels')}>
      {/* Desktop: one table. */}
      <TableContainer sx={{ display: { xs: 'none', md: 'block' } }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate('profile.member.level')}</TableCell>
              <TableCell align="right">{translate('profile.member.minDirect')}</TableCell>
              <TableCell align="right">{translate('profile.member.minTeam')}</TableCell>
              <TableCell align="right">{translate('profile.member.minTeamVolume')}</TableCell>
              <TableCell align="right">{translate('profile.member.fuelDiscount')}</TableCell>
              <TableCell align="right">{translate('profile.member.taskLimit')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {status.levels.map((level) => (
              <TableRow key={level.level} selected={current(level)} data-level-row={level.level}>
                <TableCell>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <span>{translate('profile.levelName', { level: level.level })}</span>
                    {current(level) && <Chip size="small" color="primary" label={translate('profile.member.current')} />}
                  </Stack>
                </TableCell>
                <TableCell align="right">{level.minDirect}</TableCell>
                <TableCell align="right">{level.minTeam}</TableCell>
                <TableCell align="right">{volume(level)}</TableCell>
                <TableCell align="right">{discountText(level, locale, translate)}</TableCell>
                <TableCell align="right">{level.taskLimit}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {/* Phones: one card a level. */}
      <Stack spacing={1.5} sx={{ display: { xs: 'flex', md: 'none' } }}>
        {status.levels.map((level) => (
          <Paper
            key={level.level}
            variant="outlined"
            sx={{ p: 1.5, borderColor: current(level) ? 'primary.main' : undefined, borderWidth: current(level) ? 2 : 1 }}
            data-level-card={level.level}
          >
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
              <Typography sx={{ fontWeight: 600 }}>{translate('profile.levelName', { level: level.level })}</Typography>
              {current(level) && <Chip size="small" color="primary" label={translate('profile.member.current')} />}
              {level.level < status.level && <CheckCircleIcon color="success" fontSize="small" />}
            </Stack>
            <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' }}>
              <Stat label={translate('profile.member.minDirect')} value={level.minDirect} />
              <Stat label={translate('profile.member.minTeam')} value={level.minTeam} />
              <Stat label={translate('profile.member.minTeamVolume')} value={volume(level)} />
              <Stat label={translate('profile.member.fuelDiscount')} value={discountText(level, locale, translate)} />
              <Stat label={translate('profile.member.taskLimit')} value={level.taskLimit} />
            </Box>
          </Paper>
        ))}
      </Stack>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1.5 }}>
        {translate('profile.member.rulesHint')}
      </Typography>
    </Section>
  );
};

/** `/profile/member-level`: my level, every level's requirements and benefits, my way to the next one. */
export const MemberLevelPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const status = useMemberStatus();
  return (
    <Screen titleKey="page.memberLevel">
      <QueryView query={status} skeletons={3} height={110}>
        {(data) => {
          const mine = data.levels.find((l) => l.level === data.level);
          return (
            <Stack spacing={2}>
              <Section name="current">
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap' }} useFlexGap>
                  <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                    {translate('profile.member.yourLevel')}
                  </Typography>
                  <LevelBadge level={data.level} />
                  {!data.activated && <Chip size="small" variant="outlined" label={translate('profile.notActivated')} />}
                </Stack>
                <Box sx={statGrid(5)}>
                  <Stat name="direct" label={translate('profile.member.directActivated')} value={`${data.team.directActivated} / ${data.team.direct}`} />
                  <Stat name="team" label={translate('profile.member.teamActivated')} value={`${data.team.teamActivated} / ${data.team.team}`} />
                  <Stat name="teamVolume" unit="USDT" label={translate('profile.member.teamVolume')} value={formatQuote(data.team.teamVolume, locale)} />
                  {mine && <Stat name="discount" label={translate('profile.member.fuelDiscount')} value={discountText(mine, locale, translate)} />}
                  {mine && <Stat name="taskLimit" label={translate('profile.member.taskLimit')} value={mine.taskLimit} />}
                </Box>
              </Section>
              <NextLevel status={data} />
              <Levels status={data} />
            </Stack>
          );
        }}
      </QueryView>
    </Screen>
  );
};
