import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { adjustBalance, registerUser } from '../server/test/harness';
import { VIEWPORTS } from './browser';
import { openAs, startJourney, type Journey } from './harness';

/**
 * A user's own site embeds the widgets (README "Widget tokens"): the user
 * authorises the site's origin on the security page, copies the embed code
 * and pastes it into a page of that origin, where the widgets show the data.
 * The same page served from an origin that was not authorised shows the
 * refused-origin error and no data; revoking the grant ends it at once.
 */

let journey: Journey | undefined;
const sites: Server[] = [];

// The widgets bundle a partner gets, built once for every journey (e2e/globalSetup.ts).
const widgetsDir = inject('widgetsDir');
afterEach(async () => {
  await journey?.close();
  journey = undefined;
  await Promise.all(sites.splice(0).map((site) => new Promise<void>((resolve) => site.close(() => resolve()))));
});

/** A site of its own origin (localhost and a port of its own; the product is on 127.0.0.1), answering `html()` at every path. */
const startSite = async (html: () => string): Promise<string> => {
  const site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html());
  });
  sites.push(site);
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return `http://localhost:${(site.address() as { port: number }).port}`;
};

const ERROR_COLOUR = 'rgb(198, 40, 40)';

describe('widgets embedded on the site the user authorised', () => {
  it('show the data on that origin only: another origin gets the refused-origin error and no data; revoking ends it', async () => {
    let embed = '';
    const page = () => `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>我的博客</title></head>
<body style="font-family:sans-serif;margin:16px"><h1>我的博客</h1><p>我的量化机器人：</p>
${embed}
</body></html>`;
    const blog = await startSite(page);
    const stranger = await startSite(page);
    journey = await startJourney({ viewport: 'desktop', config: { widgetsDir } });
    const j = journey;
    await j.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: j.server.base });
    const session = await registerUser(j.server, { email: 'blogger@example.com' });
    await adjustBalance(j.server, session.user.id, 'USDT', '1234.5');

    // The security page: name the site and its address, allow it, copy the embed code.
    await openAs(j.page, j.server.base, session, '/profile/security');
    const section = j.page.locator('[data-section="widget-grants"]');
    await section.getByRole('textbox', { name: '网站名称' }).fill('我的博客');
    await section.getByRole('textbox', { name: '网站地址' }).fill(`${blog}/`);
    await section.getByRole('button', { name: '授权网站' }).click();
    const issued = j.page.locator('[data-state="issued"]');
    await issued.waitFor();
    // The embed code comes first; the developer details stay folded.
    await expect.poll(() => issued.getByRole('button').first().textContent()).toBe('复制嵌入代码');
    expect(await issued.getByRole('button', { name: '开发者' }).getAttribute('aria-expanded')).toBe('false');
    await j.shot('widget-origins-security-1280');
    await j.page.setViewportSize(VIEWPORTS.phone);
    await j.shot('widget-origins-security-375');
    expect(await j.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await j.page.setViewportSize(VIEWPORTS.desktop);
    await issued.getByRole('button', { name: '复制嵌入代码' }).click();
    embed = await j.page.evaluate(() => navigator.clipboard.readText());
    expect(embed).toContain(`<script src="${j.server.base}/widgets/qt-widgets.iife.js"></script>`);
    expect(embed).toMatch(/<qt-wallet-balance api-base="[^"]+" token="qtw_[^"]+"/);

    // The authorised site: the widgets show the data.
    await j.page.goto(`${blog}/`);
    const wallet = j.page.locator('qt-wallet-balance');
    await wallet.getByText('1,234.50').waitFor({ timeout: 15_000 });
    await expect.poll(() => wallet.locator('[data-asset]').count()).toBe(4);
    await j.page.locator('qt-profit-card').getByText('累计').waitFor();
    await j.page.locator('qt-task-list').getByText('暂无运行中的任务。').waitFor();
    expect(await j.page.locator('[role="alert"]').count()).toBe(0);
    await j.shot('widget-origins-blog-1280');
    await j.page.setViewportSize(VIEWPORTS.phone);
    await j.shot('widget-origins-blog-375');
    await j.page.setViewportSize(VIEWPORTS.desktop);

    // The same page on an origin nobody authorised: each widget says so, in the error style, and shows no data.
    await j.page.goto(`${stranger}/`);
    for (const name of ['qt-profit-card', 'qt-task-list', 'qt-wallet-balance']) {
      const alert = j.page.locator(name).locator('[role="alert"]');
      await alert.waitFor({ timeout: 15_000 });
      expect(await alert.getAttribute('data-cause')).toBe('origin');
      expect(await alert.textContent()).toContain(`本网站（${stranger}）未获授权显示这些数据。`);
      expect(await alert.evaluate((element) => getComputedStyle(element).color)).toBe(ERROR_COLOUR);
    }
    expect(await j.page.locator('qt-wallet-balance [data-asset]').count()).toBe(0);
    expect(await j.page.getByText('1,234.50').count()).toBe(0);
    await j.shot('widget-origins-stranger-1280');
    await j.page.setViewportSize(VIEWPORTS.phone);
    await j.shot('widget-origins-stranger-375');
    await j.page.setViewportSize(VIEWPORTS.desktop);

    // Revoked on the security page: the authorised site's widgets say so at their next load.
    await openAs(j.page, j.server.base, session, '/profile/security');
    await j.page.locator('[data-widget-grant]').getByRole('button', { name: '撤销' }).click();
    await j.page.getByRole('dialog').getByRole('button', { name: '确认' }).click();
    await j.page.getByText('尚未授权任何网站。').waitFor();
    await j.page.goto(`${blog}/`);
    const revoked = j.page.locator('qt-wallet-balance [role="alert"]');
    await revoked.waitFor({ timeout: 15_000 });
    expect(await revoked.getAttribute('data-cause')).toBe('revoked');
    expect(await revoked.textContent()).toContain('数据所有者已撤销本网站的授权');
    expect(await j.page.locator('qt-wallet-balance [data-asset]').count()).toBe(0);
  });
});
