import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { depositAddressFor } from '../server/src/wallet/address';
import { adjustBalance, registerUser, trustAddress } from '../server/test/harness';
import { VIEWPORTS } from './browser';
import { ARTIFACTS, hashPath, openAs, startJourney, type Journey } from './harness';

/**
 * Two-factor authentication in real Chromium (issue 26), en-US: turn the
 * authenticator app on from the QR code's key (codes computed here with the
 * same library from the key the page shows), log in with a code, withdraw
 * with the factor, see a replayed code refused, and log in with a recovery
 * code, which holds withdrawals. At 375 px, then at 1280 px. The factors'
 * clock is the test's, moved on one 30-second step per code.
 */
let journey: Journey | undefined;
afterEach(async () => {
  await journey?.close();
  journey = undefined;
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `second-factor-${name}.png`), fullPage: true, animations: 'disabled' });
const noOverflow = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);

describe('two-factor authentication in the browser', () => {
  it('turns TOTP on, logs in with it, withdraws with it, refuses a replayed code and logs in with a recovery code', { timeout: 120_000 }, async () => {
    let clock = Date.now();
    journey = await startJourney({ viewport: 'phone', locale: 'en-US', build: { factorClock: () => clock } });
    const j = journey;
    const { page, server } = j;
    const user = await registerUser(server, { email: 'careful@example.com', nickname: 'Careful' });
    await adjustBalance(server, user.user.id, 'USDT', '100');
    let secret = '';
    const nextCode = () => {
      clock += 30_000;
      return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock });
    };
    const logOutHere = async () => {
      await page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
        localStorage.setItem('locale', 'en-US');
      });
    };
    const passwordStep = async () => {
      await page.goto(j.url('/auth/login'));
      await page.locator('input[name="email"]').fill('careful@example.com');
      await page.locator('input[name="password"]').fill(user.password);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.locator('[data-second-step]').waitFor();
    };

    // 1. Security: turn on, scan (the key), confirm with a first code, the ten recovery codes shown once.
    await openAs(page, server.base, user, '/profile/security', 'en-US');
    const section = page.locator('[data-section="two-factor"]');
    await section.getByRole('button', { name: 'Turn on' }).click();
    await section.locator('img[data-totp-qr]').waitFor();
    secret = ((await section.locator('[data-copy="totp-secret"] p').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await shot(page, 'enrol-375');
    await noOverflow(page);
    await section.locator('input[data-totp-code]').fill(nextCode());
    await section.getByRole('button', { name: 'Confirm and turn on' }).click();
    const codes = section.locator('[data-recovery-code]');
    await expect.poll(() => codes.count()).toBe(10);
    const recoveryCodes = await codes.evaluateAll((items) => items.map((item) => item.getAttribute('data-recovery-code')!));
    await shot(page, 'recovery-codes-375');
    await noOverflow(page);
    await section.getByRole('button', { name: 'I have saved them' }).click();
    await section.locator('[data-totp-status="on"]').waitFor();

    // 2. Log in again: the password, then the authenticator's code.
    await logOutHere();
    await passwordStep();
    await shot(page, 'login-step-375');
    await noOverflow(page);
    await page.locator('input[name="code"]').fill(nextCode());
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => hashPath(page)).toBe('/');

    // 3. Withdraw: the password, then the step-up dialog asks for a code.
    const payout = depositAddressFor('payout-wallet', 'cold-storage');
    // An address of the book whose 24 hours have passed (the wait itself: server/test/withdrawalAddresses.test.ts).
    await trustAddress(server, user.user.id, payout);
    const askWithdrawal = async () => {
      await page.goto(j.url('/profile/wallet/withdraw'));
      await page.getByRole('textbox', { name: 'Withdrawal address' }).fill(payout);
      await page.getByRole('textbox', { name: 'Amount' }).fill('20');
      await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
      const confirm = page.getByRole('dialog', { name: 'Confirm the withdrawal' });
      await confirm.getByLabel('Login password').fill(user.password);
      await confirm.getByRole('button', { name: 'Confirm' }).click();
    };
    const withdraw = async (code: string) => {
      await askWithdrawal();
      const stepUp = page.locator('[data-step-up]');
      await stepUp.locator('input[data-step-up-code]').fill(code);
      await stepUp.getByRole('button', { name: 'Confirm' }).click();
      return stepUp;
    };
    const code = nextCode();
    await withdraw(code);
    await page.getByText('Withdrawal submitted: it waits for approval.').waitFor();
    expect(await server.db.selectFrom('withdrawals').select('amount').where('user_id', '=', user.user.id).execute()).toHaveLength(1);

    // 4. The same code again: refused in the dialog, nothing sent.
    const replayed = await withdraw(code);
    await replayed.getByText('The code is wrong, expired or already used. Wait for the next code.').waitFor();
    await shot(page, 'replayed-375');
    await replayed.getByRole('button', { name: 'Cancel' }).click();
    expect(await server.db.selectFrom('withdrawals').select('amount').where('user_id', '=', user.user.id).execute()).toHaveLength(1);

    // 5. At 1280 px: log in with a recovery code; withdrawals are held for 24 hours.
    await page.setViewportSize(VIEWPORTS.desktop);
    await logOutHere();
    await passwordStep();
    await page.locator('input[name="code"]').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => hashPath(page)).toBe('/');
    await page.goto(j.url('/profile/security'));
    await page.locator('[data-withdrawals-held]').waitFor();
    await section.getByText('Recovery codes left: 9').waitFor();
    await shot(page, 'security-1280');
    await noOverflow(page);
    await askWithdrawal();
    await page.getByText(/withdrawals and transfers are on hold for 24 more hours/).first().waitFor();
    await shot(page, 'held-1280');
  });
});
