import { afterEach, describe, expect, it } from 'vitest';
import { registerUser } from '../server/test/harness';
import { openAs, startJourney, type Journey } from './harness';
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
    const asked: URL[] = [];
    j.page.on('request', (request) => {
      if (request.url().includes('/api/wallet/records')) asked.push(new URL(request.url()));
    });
    await openAs(j.page, j.server.base, session, '/profile/wallet/usdt-records', locale);
    const days = j.page.locator('form[role="search"] [role="group"]');
    await days.first().waitFor();
    // Each field's first part (the year in Chinese, the month in English) takes the whole day typed;
    // the next field is typed once the page has taken the first one's whole day (asked the server with it).
    // A key that reaches a field between two of its renders can be lost on a busy machine, and a day the page
    // took on the way (a year of 0202) can come back into the field after it showed the whole day: the day is
    // typed again then.
    const takes = (index: number) => (url: URL) =>
      url.searchParams.get('from') === '2026-03-01' && (index === 0 || url.searchParams.get('to') === '2026-03-31');
    for (const [index, typed] of [from, to].entries()) {
      const shows = () => expect.poll(() => days.nth(index).textContent(), { timeout: 5000 }).toContain(shown[index]);
      for (let attempt = 1; ; attempt++) {
        await days.nth(index).getByRole('spinbutton').first().click();
        await j.page.keyboard.type(typed);
        try {
          await shows();
          await expect.poll(() => asked.some(takes(index)), { timeout: 10000 }).toBe(true);
          await shows();
          break;
        } catch (error) {
          if (attempt === 3) throw error;
        }
      }
    }
    expect((await textFindings(j.page)).clipped).toEqual([]);
  });
});
