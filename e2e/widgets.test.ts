import { afterEach, describe, expect, inject, it } from 'vitest';
import { createWidgetTokens } from '../server/src/widget/tokens';
import { registerUser } from '../server/test/harness';
import { openAs, startJourney, type Journey } from './harness';

/**
 * The widgets bundle in real Chromium: the partner example page on the same
 * server as the dashboard, signed in through the dashboard's stored session.
 * The three elements render their data inside open shadow roots, and the
 * page's hostile `* { color: red !important }` does not reach inside.
 */
let journey: Journey | undefined;

// The widgets bundle a partner gets, built once for every journey (e2e/globalSetup.ts).
const widgetsDir = inject('widgetsDir');
afterEach(async () => {
  await journey?.close();
  journey = undefined;
});

const RED = 'rgb(255, 0, 0)';

describe('widgets on a partner page', () => {
  it('render the signed-in user data in shadow roots, untouched by the page style', async () => {
    journey = await startJourney({ viewport: 'desktop', config: { widgetsDir } });
    const j = journey;
    const session = await registerUser(j.server, { email: 'widgets@example.com' });

    await j.page.goto(`${j.server.base}/examples/partner.html`);
    await j.page.evaluate(
      ([access, refresh]) => {
        localStorage.setItem('accessToken', access!);
        localStorage.setItem('refreshToken', refresh!);
      },
      [session.accessToken, session.refreshToken],
    );
    await j.page.reload();

    // Playwright's CSS locators pierce open shadow roots.
    const zh = j.page.locator('[data-example="zh-CN-light"]');
    const en = j.page.locator('[data-example="en-US-dark"]');
    await zh.locator('qt-profit-card [data-stat="total"]').waitFor();
    await expect.poll(() => zh.locator('qt-profit-card h2').textContent()).toBe('已实现收益');
    await expect.poll(() => en.locator('qt-profit-card h2').textContent()).toBe('Realized profit');
    await zh.locator('qt-task-list').getByText('暂无运行中的任务。').waitFor();
    await en.locator('qt-task-list').getByText('No running task yet.').waitFor();
    // The wallet widget: the four assets of the custodial wallet, a new user's all at zero.
    await zh.locator('qt-wallet-balance').getByText('激活卡').waitFor();
    await en.locator('qt-wallet-balance').getByText('Activation cards').waitFor();
    await expect.poll(() => en.locator('qt-wallet-balance [data-asset]').count()).toBe(4);
    await expect.poll(() => en.locator('qt-wallet-balance [data-asset="USDT"] [data-field="available"]').textContent()).toBe('0.00');

    const styles = await j.page.evaluate(() =>
      [...document.querySelectorAll('qt-profit-card, qt-task-list, qt-wallet-balance')].map((element) => {
        const title = element.shadowRoot?.querySelector('h2');
        const style = title ? getComputedStyle(title) : undefined;
        return { open: element.shadowRoot !== null, color: style?.color, font: style?.fontFamily };
      }),
    );
    expect(styles).toHaveLength(6);
    for (const style of styles) {
      expect(style.open).toBe(true);
      expect(style.color).not.toBe(RED);
      expect(style.font).not.toMatch(/^serif$/);
    }
    // The page's own text is red: the hostile style is in force outside.
    expect(await j.page.evaluate(() => getComputedStyle(document.querySelector('h1')!).color)).toBe(RED);
    await j.shot('widgets-partner-page');

    // Changing the locale and theme attributes re-renders in place.
    const card = zh.locator('qt-profit-card');
    await card.evaluate((element) => {
      element.setAttribute('locale', 'zh-TW');
      element.setAttribute('theme', 'dark');
    });
    await expect.poll(() => card.locator('h2').textContent()).toBe('已實現收益');
    await expect.poll(() => card.locator('[data-widget]').getAttribute('data-theme')).toBe('dark');

    // The session ends: the widgets tell the page and show the logged-out state with a login link.
    await j.page.evaluate(() => {
      (window as unknown as { expired: number }).expired = 0;
      document.addEventListener('qt-session-expired', () => {
        (window as unknown as { expired: number }).expired += 1;
      });
    });
    expect((await j.server.call('POST', '/api/user/logout', undefined, { token: session.accessToken })).body.code).toBe(0);
    await card.evaluate((element) => element.setAttribute('refresh', '1'));
    // Polled as one picture, so that a failure shows what the page was in: told or not, tokens left, the card's text.
    const seen = async () => ({
      told: await j.page.evaluate(() => (window as unknown as { expired: number }).expired > 0),
      loginLink: (await card.locator('a[href*="#/auth/login"]').count()) > 0,
      tokensLeft: await j.page.evaluate(() => localStorage.getItem('accessToken') !== null),
      text: await card.locator('[data-widget]').innerText(),
    });
    await expect.poll(seen, { timeout: 15000 }).toMatchObject({ told: true, loginLink: true, tokensLeft: false });
    await j.shot('widgets-logged-out');
  });

  it("show a partner's widget token: renewed by the partner, refused elsewhere with 11005, revoked from the security page", async () => {
    journey = await startJourney({ viewport: 'desktop', config: { widgetsDir } });
    const j = journey;
    const session = await registerUser(j.server, { email: 'partner-user@example.com' });
    const issued = await j.server.call('POST', '/api/user/widget-token', { name: 'Partner community', origin: j.server.base }, { token: session.accessToken });
    expect(issued.body.code).toBe(0);
    const grant = issued.body.data as { id: string; token: string; key: string };

    // The partner's backend keeps the key and trades it for fresh tokens.
    const renewals: number[] = [];
    await j.page.exposeFunction('partnerToken', async () => {
      const answer = await j.server.call('PUT', '/api/user/widget-token', { key: grant.key });
      renewals.push(answer.body.code);
      return answer.body.code === 0 ? (answer.body.data.token as string) : null;
    });
    // This page has no dashboard session: only what the partner hands out.
    await j.page.goto(`${j.server.base}/examples/partner.html`);
    await j.page.evaluate(() => {
      const page = window as unknown as { partnerToken: () => Promise<string | null>; expired: number };
      page.expired = 0;
      document.addEventListener('qt-session-expired', async () => {
        page.expired += 1;
        const token = await page.partnerToken();
        for (const element of document.querySelectorAll('qt-profit-card, qt-task-list, qt-wallet-balance')) {
          if (token) element.setAttribute('token', token);
        }
      });
    });
    const zh = j.page.locator('[data-example="zh-CN-light"]');
    await zh.locator('qt-wallet-balance [data-state="logged-out"]').waitFor();

    // A token that has ended: the widgets say so, the partner renews it, and they show the data.
    const ended = await createWidgetTokens(j.server.config.tokenSecret).issue({ userId: session.user.id, grantId: grant.id }, 60, Math.floor(Date.now() / 1000) - 120);
    await j.page.evaluate((token) => {
      for (const element of document.querySelectorAll('qt-profit-card, qt-task-list, qt-wallet-balance')) element.setAttribute('token', token);
    }, ended);
    await zh.locator('qt-wallet-balance').getByText('激活卡').waitFor();
    await zh.locator('qt-profit-card [data-stat="total"]').waitFor();
    await zh.locator('qt-task-list').getByText('暂无运行中的任务。').waitFor();
    expect(renewals).toEqual([0]);
    await j.shot('widgets-partner-token');

    // The token the widgets now hold reads what they show and nothing else.
    const token = (await zh.locator('qt-wallet-balance').getAttribute('token'))!;
    const answers = await j.page.evaluate(async (bearer) => {
      const call = async (method: string, path: string) => {
        const response = await fetch(path, { method, headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });
        return [response.status, ((await response.json()) as { code: number }).code];
      };
      return {
        balances: await call('GET', '/api/wallet/balances'),
        me: await call('GET', '/api/user/me'),
        withdraw: await call('POST', '/api/wallet/withdraw'),
        addTask: await call('POST', '/api/trade/add'),
        newGrant: await call('POST', '/api/user/widget-token'),
      };
    }, token);
    expect(answers).toEqual({ balances: [200, 0], me: [200, 11005], withdraw: [200, 11005], addTask: [200, 11005], newGrant: [200, 11005] });

    // The user revokes the access on the security page, in the dashboard.
    const dashboard = await j.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    const security = await dashboard.newPage();
    await openAs(security, j.server.base, session, '/profile/security');
    const row = security.locator(`[data-widget-grant="${grant.id}"]`);
    await row.getByText('Partner community').waitFor();
    await row.getByRole('button', { name: '撤销' }).click();
    await security.getByRole('dialog').getByRole('button', { name: '确认' }).click();
    await security.getByText('已撤销授权。').waitFor();
    await row.waitFor({ state: 'detached' });
    await dashboard.close();

    // At the next refresh the widgets find the grant revoked and say so (no login to make, nothing to renew); the partner's key is refused too.
    await zh.locator('qt-wallet-balance').evaluate((element) => element.setAttribute('refresh', '1'));
    await zh.locator('qt-wallet-balance [role="alert"][data-cause="revoked"]').waitFor({ timeout: 15000 });
    expect(await zh.locator('qt-wallet-balance a[href*="#/auth/login"]').count()).toBe(0);
    expect(renewals).toEqual([0]);
    expect((await j.server.call('PUT', '/api/user/widget-token', { key: grant.key })).body.code).toBe(11005);
    await j.shot('widgets-partner-revoked');
  });
});
