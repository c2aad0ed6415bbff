import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18nProvider } from '../../i18n/i18nProvider';
import { fail, ok } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { community, inviteInfo } from './testData';

afterEach(() => vi.unstubAllGlobals());

describe('/profile/invite', () => {
  beforeEach(startSignedInZhCN);

  it('shows the code, the full link and its QR code, copies both, and tells the counts and the reward', async () => {
    await renderApp('/profile/invite', { ...identityRoute, 'GET /api/invite/info': () => ok(inviteInfo) });
    const user = userEvent.setup();
    await findHeading('邀请好友');
    const link = `${window.location.origin}/#/auth/register?inviteCode=ABC123`;
    const code = await screen.findByText('ABC123', undefined, { timeout: 5000 });
    expect(code.closest('[data-copy="code"]')).not.toBeNull();
    expect(screen.getByText(link)).toBeInTheDocument();
    const qr = await screen.findByRole('img', { name: '邀请链接二维码' });
    expect(qr).toHaveAttribute('data-qr', link);
    expect(decodeURIComponent(qr.getAttribute('src')!)).toMatch(/^data:image\/svg\+xml;charset=utf-8,<svg/);

    await user.click(screen.getByRole('button', { name: '复制邀请链接' }));
    // user-event puts its own clipboard in place: what the page copied is read back from it.
    expect(await navigator.clipboard.readText()).toBe(link);
    expect(await screen.findByText('已复制。')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '复制邀请码' }));
    expect(await navigator.clipboard.readText()).toBe('ABC123');

    expect(document.querySelector('[data-stat="direct"]')).toHaveTextContent('4');
    expect(document.querySelector('[data-stat="team"]')).toHaveTextContent('9');
    expect(document.querySelector('[data-section="reward"]')).toHaveTextContent('您将获得 50 积分');
  });

  it('shows the error of the invite call', async () => {
    await renderApp('/profile/invite', { ...identityRoute, 'GET /api/invite/info': () => fail(11000) });
    expect(await screen.findByText('用户不存在', undefined, { timeout: 5000 })).toBeInTheDocument();
  });
});

describe('/profile/community', () => {
  beforeEach(startSignedInZhCN);

  it('lists my direct invitees, then the whole team, with counts and each member\'s figures', async () => {
    const app = await renderApp('/profile/community', {
      ...identityRoute,
      'GET /api/invite/community': (request) => ok(community(new URL(request.url, 'http://localhost').searchParams.get('scope') as 'direct' | 'team')),
    });
    await waitFor(() => expect(document.querySelector('[data-member="m1"]')).not.toBeNull(), { timeout: 5000 });
    expect(document.querySelector('[data-stat="direct"]')).toHaveTextContent('1');
    expect(document.querySelector('[data-stat="team"]')).toHaveTextContent('2');
    const bob = within(document.querySelector<HTMLElement>('[data-member="m1"]')!);
    expect(bob.getByText('Bob')).toBeInTheDocument();
    expect(bob.getByText('b***@example.com')).toBeInTheDocument();
    expect(bob.getByText('V1')).toBeInTheDocument();
    expect(bob.getByText('已激活')).toBeInTheDocument();
    expect(bob.getByText('3')).toBeInTheDocument();
    expect(document.querySelector('[data-member="m2"]')).toBeNull();

    await userEvent.click(screen.getByRole('tab', { name: '全部团队' }));
    await waitFor(() => expect(document.querySelector('[data-member="m2"]')).not.toBeNull());
    const carol = within(document.querySelector<HTMLElement>('[data-member="m2"]')!);
    expect(carol.getByText('第 2 层')).toBeInTheDocument();
    expect(carol.getByText('未激活')).toBeInTheDocument();
    const scopes = app.server.requests
      .filter((r) => r.path === '/api/invite/community')
      .map((r) => Object.fromEntries(new URL(r.url, 'http://localhost').searchParams));
    expect(scopes).toEqual([
      { scope: 'direct', page: '1', pageSize: '20' },
      { scope: 'team', page: '1', pageSize: '20' },
    ]);
  });

  it('with nobody invited points to the invite page; an error shows its text', async () => {
    await renderApp('/profile/community', { ...identityRoute, 'GET /api/invite/community': () => ok({ list: [], total: 0, direct: 0, team: 0 }) });
    expect(await screen.findByText('您还没有邀请任何人。', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '邀请好友' })).toHaveAttribute('href', '/profile/invite');
  });

  it('shows the error of the community call', async () => {
    await renderApp('/profile/community', { ...identityRoute, 'GET /api/invite/community': () => fail(99999) });
    expect(await screen.findByText('未知错误', undefined, { timeout: 5000 })).toBeInTheDocument();
  });
});

describe('the register page opened from an invite link', () => {
  beforeEach(async () => {
    const provider = await createI18nProvider();
    if (provider.getLocale() !== 'zh-CN') await provider.changeLocale('zh-CN');
  });

  it('takes the invite code from ?inviteCode= and keeps it editable', async () => {
    await renderApp('/auth/register?inviteCode=ABC123');
    const field = await screen.findByLabelText(/邀请码/, undefined, { timeout: 5000 });
    expect(field).toHaveValue('ABC123');
    await userEvent.clear(field);
    await userEvent.type(field, 'XYZ');
    expect(field).toHaveValue('XYZ');
  });

  it('without a code the field is empty', async () => {
    await renderApp('/auth/register');
    expect(await screen.findByLabelText(/邀请码/, undefined, { timeout: 5000 })).toHaveValue('');
  });
});
