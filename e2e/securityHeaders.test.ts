import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { registerUser } from '../server/test/harness';
import { startJourney, type Journey } from './harness';

/**
 * The security headers in Chromium (README "Security headers"): the dashboard
 * page carries them, its policy is in force (an injected inline script does
 * not run and is reported), another origin cannot frame it, and a partner page
 * on another origin still loads the widgets script and its data.
 */

let journey: Journey | undefined;
let partner: Server | undefined;

// The widgets bundle a partner gets, built once for every journey (e2e/globalSetup.ts).
const widgetsDir = inject('widgetsDir');
afterEach(async () => {
  await journey?.close();
  journey = undefined;
  await new Promise<void>((resolve) => (partner ? partner.close(() => resolve()) : resolve()));
  partner = undefined;
});

/** A page of another origin (localhost, where the product is on 127.0.0.1), answering `html()` at every path. */
const startPartner = async (html: () => string): Promise<string> => {
  partner = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html());
  });
  await new Promise<void>((resolve) => partner!.listen(0, '127.0.0.1', resolve));
  return `http://localhost:${(partner.address() as { port: number }).port}`;
};

describe('security headers in Chromium', () => {
  it('the dashboard carries them, and its policy refuses an inline script', async () => {
    journey = await startJourney({ viewport: 'desktop', locale: 'zh-CN' });
    const j = journey;
    const response = await j.page.goto(j.url('/auth/login'));
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe/);
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['strict-transport-security']).toBeUndefined();
    await j.page.getByRole('heading', { level: 1 }).waitFor();
    expect(j.cspViolations).toEqual([]);

    // What an injection would do: the script does not run, and the violation is seen.
    const ran = await j.page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      // An inline script runs as it is inserted, or never.
      document.body.append(script);
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => j.cspViolations.some((line) => line.startsWith('script-src'))).toBe(true);
    j.cspViolations.length = 0;
  });

  it('another origin cannot frame the dashboard', async () => {
    journey = await startJourney({ viewport: 'desktop', locale: 'zh-CN' });
    const j = journey;
    const origin = await startPartner(() => `<!doctype html><title>framer</title><iframe id="victim" src="${j.url('/auth/login')}" width="800" height="600"></iframe>`);
    await j.page.goto(`${origin}/`);
    // Chromium reports the refusal in the framing page's console.
    await expect.poll(() => j.cspViolations.some((line) => /frame-ancestors/.test(line)), { timeout: 15_000 }).toBe(true);
    const frame = j.page.frames().find((f) => f !== j.page.mainFrame());
    expect(await frame?.locator('#root').count().catch(() => 0)).toBe(0);
    j.cspViolations.length = 0;
  });

  it('a partner page on another origin loads the widgets script and shows the data with a widget token', async () => {
    // The partner's origin is in CORS_ORIGINS, and its grant is bound to it (a grant's origin alone suffices: e2e/widgetOrigins.test.ts).
    const partnerPage = (api: string, token: string) => `<!doctype html><html lang="en-US"><head><meta charset="utf-8"><title>Partner</title></head><body>
<qt-wallet-balance api-base="${api}" token="${token}" locale="en-US"></qt-wallet-balance>
<script src="${api}/widgets/qt-widgets.iife.js"></script></body></html>`;
    let html = '';
    const origin = await startPartner(() => html);
    journey = await startJourney({ viewport: 'desktop', config: { widgetsDir, corsOrigins: [origin] } });
    const j = journey;
    const session = await registerUser(j.server, { email: 'partner-origin@example.com' });
    const issued = await j.server.call('POST', '/api/user/widget-token', { name: 'Partner on its own origin', origin }, { token: session.accessToken });
    expect(issued.body.code).toBe(0);
    html = partnerPage(j.server.base, issued.body.data.token as string);

    const script = j.page.waitForResponse((answer) => answer.url().endsWith('/widgets/qt-widgets.iife.js'));
    await j.page.goto(`${origin}/`);
    expect((await script).headers()['cross-origin-resource-policy']).toBe('cross-origin');
    const wallet = j.page.locator('qt-wallet-balance');
    await wallet.getByText('Activation cards').waitFor({ timeout: 15_000 });
    await expect.poll(() => wallet.locator('[data-asset]').count()).toBe(4);
    expect(j.cspViolations).toEqual([]);
  });
});
