import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotifyChannelEndpoint as Path, type NotifyChannelsState } from '../../api/notifyChannels';
import { fail, ok, type RecordedRequest } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';

afterEach(() => vi.unstubAllGlobals());

const PUBLIC_KEY = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';

const state = (overrides: Partial<NotifyChannelsState> = {}): NotifyChannelsState => ({
  telegram: { linked: false, linkedAt: null, disabledReason: null },
  push: { publicKey: PUBLIC_KEY, subscriptions: 0 },
  webhook: null,
  ...overrides,
});

describe('/profile/notification-channels', () => {
  beforeEach(startSignedInZhCN);

  it('links Telegram: shows the one-time deep link, waits, and shows the chat linked', async () => {
    let current = state();
    const link = { url: 'https://t.me/qt_notify_bot?start=AbCdEfGhIjKlMnOpQrSt', expiresAt: '2026-11-26T10:15:00.000Z' };
    await renderApp('/profile/notification-channels', {
      ...identityRoute,
      [`GET ${Path.state}`]: () => ok(current),
      [`POST ${Path.telegramLink}`]: () => ok(link),
    });
    await findHeading('通知渠道');
    fireEvent.click(await screen.findByRole('button', { name: '绑定 Telegram' }, { timeout: 5000 }));
    expect(await screen.findByText(link.url)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '在 Telegram 中打开' })).toHaveAttribute('href', link.url);
    expect(screen.getByRole('status')).toHaveTextContent('正在等待绑定完成');

    current = state({ telegram: { linked: true, linkedAt: '2026-11-26T10:01:00.000Z', disabledReason: null } });
    expect(await screen.findByText(/已绑定（/, undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByText(link.url)).toBeNull();
    expect(screen.getByRole('button', { name: '解除绑定' })).toBeInTheDocument();
  });

  it('links another chat when one is linked: the new link waits until that chat is linked', async () => {
    let current = state({ telegram: { linked: true, linkedAt: '2026-11-26T09:00:00.000Z', disabledReason: null } });
    const link = { url: 'https://t.me/qt_notify_bot?start=ZyXwVuTsRqPoNmLkJiHg', expiresAt: '2026-11-26T10:15:00.000Z' };
    await renderApp('/profile/notification-channels', {
      ...identityRoute,
      [`GET ${Path.state}`]: () => ok(current),
      [`POST ${Path.telegramLink}`]: () => ok(link),
    });
    fireEvent.click(await screen.findByRole('button', { name: '绑定 Telegram' }, { timeout: 5000 }));
    expect(await screen.findByText(link.url)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('正在等待绑定完成');

    current = state({ telegram: { linked: true, linkedAt: '2026-11-26T10:01:00.000Z', disabledReason: null } });
    await waitFor(() => expect(screen.queryByText(link.url)).toBeNull(), { timeout: 5000 });
    expect(screen.getByRole('button', { name: '解除绑定' })).toBeInTheDocument();
  });

  it('offers no Telegram without a bot; says when this browser cannot receive push', async () => {
    await renderApp('/profile/notification-channels', { ...identityRoute, [`GET ${Path.state}`]: () => ok(state({ telegram: null })) });
    expect(await screen.findByText(/本浏览器无法接收推送通知/, undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '绑定 Telegram' })).toBeNull();
  });

  it('saves a webhook: a private address is refused with its reason, then the secret shows once and a test reports its failure', async () => {
    let current = state({ telegram: null });
    const saves: RecordedRequest[] = [];
    await renderApp('/profile/notification-channels', {
      ...identityRoute,
      [`GET ${Path.state}`]: () => ok(current),
      [`POST ${Path.webhookSave}`]: (request) => {
        saves.push(request);
        if (String(request.body?.url).includes('10.0.0.1')) return fail(10003, 'url: a loopback, private, link-local or reserved address', { field: 'url', reason: 'private_address' });
        current = state({ telegram: null, webhook: { url: String(request.body?.url), enabled: true, disabledReason: null } });
        return ok({ url: request.body?.url, secret: 'whsec_0123456789abcdef0123456789abcdef0123456789abcdef' });
      },
      [`POST ${Path.webhookTest}`]: () => ok({ ok: false, error: 'webhook answered 404' }),
    });
    const input = await screen.findByRole('textbox', { name: '地址（https://…）' }, { timeout: 5000 });
    fireEvent.change(input, { target: { value: 'http://10.0.0.1/hook' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('该地址属于内网、本机或保留网段；Webhook 只能发送到公网地址。')).toBeInTheDocument();

    fireEvent.change(input, { target: { value: 'https://hooks.example.com/qt' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('whsec_0123456789abcdef0123456789abcdef0123456789abcdef')).toBeInTheDocument();
    expect(screen.getByText('请立即复制密钥：它只显示这一次。')).toBeInTheDocument();
    expect(saves.map((request) => request.body)).toEqual([{ url: 'http://10.0.0.1/hook' }, { url: 'https://hooks.example.com/qt' }]);

    fireEvent.click(await screen.findByRole('button', { name: '发送测试' }));
    await waitFor(() => expect(screen.getByText('测试失败：webhook answered 404')).toBeInTheDocument());
  });
});
