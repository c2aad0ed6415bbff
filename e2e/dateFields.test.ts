import { afterEach, describe, expect, it } from 'vitest';
import { registerUser } from '../server/test/harness';
import { startJourney, type Journey } from './harness';
import { textFindings } from './pageChecks';

/**
 * The page-language date fields at phone width: a record filter's two dates,
 * typed in the page's order, show whole (not cut by their box) and are the
 * days the page asks the server for.
 */
let journey: Journey | undefined;
afterEach(async () => {
  await journey?.close();
  journey = undefined;
});

const cases = [
  { locale: 'zh-CN', from: '20260301', to: '20260331', shown: ['2026/03/01', '2026/03/31'] },
  { locale: 'en-US', from: '03012026', to: '03312026', shown: ['03/01/2026', '03/31/2026'] },
] as const;

describe.each(cases)('date fields at 375 px ($locale)', ({ locale, from, to, shown }) => {
  it('show typed dates whole and filter the records by them', async () => {
    journey = await startJourney({ viewport: 'phone', locale });
    const j = journey;
    const session = await registerUser(j.server, { email: `dates-${locale.toLowerCase()}@example.com` });
    await j.page.goto(j.url('/auth/login'));
    await j.page.evaluate(([access, refresh]) => {
      localStorage.setItem('accessToken', access!);
      localStorage.setItem('refreshToken', refresh!);
    }, [session.accessToken, session.refreshToken]);
    const asked: URL[] = [];
    j.page.on('request', (request) => {
      if (request.url().includes('/api/wallet/records')) asked.push(new URL(request.url()));
    });
    await j.page.goto(j.url('/profile/wallet/usdt-records'));
    const days = j.page.locator('form[role="search"] [role="group"]');
    await days.first().waitFor();
    // Each field's first part (the year in Chinese, the month in English) takes the whole day typed.
    await days.nth(0).getByRole('spinbutton').first().click();
    await j.page.keyboard.type(from);
    await days.nth(1).getByRole('spinbutton').first().click();
    await j.page.keyboard.type(to);
    await expect.poll(() => asked.some((url) => url.searchParams.get('from') === '2026-03-01' && url.searchParams.get('to') === '2026-03-31')).toBe(true);
    expect([await days.nth(0).textContent(), await days.nth(1).textContent()]).toEqual(shown.map((day) => expect.stringContaining(day)));
    expect((await textFindings(j.page)).clipped).toEqual([]);
  });
});
