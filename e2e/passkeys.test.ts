import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { registerUser } from '../server/test/harness';
import { VIEWPORTS } from './browser';
import { ARTIFACTS, hashPath, openAs, startJourney, storage, type Journey } from './harness';

/**
 * Passkeys in real Chromium (issue 26, README "Passkeys"), en-US, with a
 * virtual authenticator of the DevTools protocol's WebAuthn domain (CTAP2,
 * internal, resident keys, user verified): at 375 px add a passkey in
 * Security (its recovery codes shown once), log out and log in with the
 * passkey alone; at 1280 px log in with the password and the passkey as the
 * second step, then remove the passkey, which asks for it again (step-up).
 * The page is opened on `localhost`: a passkey's relying party is a host
 * name, never an IP address.
 */
let journey: Journey | undefined;
afterEach(async () => {
  await journey?.close();
  journey = undefined;
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `passkey-${name}.png`), fullPage: true, animations: 'disabled' });
const noOverflow = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);

describe('passkeys in the browser', () => {
  it('adds a passkey, logs in with it alone and as the second step, and confirms its own removal with it', { timeout: 120_000 }, async () => {
    journey = await startJourney({ viewport: 'phone', locale: 'en-US' });
    const { page, server, context } = journey;
    const base = server.base.replace('127.0.0.1', 'localhost');
    const user = await registerUser(server, { email: 'keyholder@example.com', nickname: 'Keyholder' });

    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    const signCount = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.map((c) => c.signCount);
    const logOutHere = () =>
      page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
        localStorage.setItem('locale', 'en-US');
      });

    // 1. Security at 375 px: name it, add it; the account's first factor shows its recovery codes once.
    await openAs(page, base, user, '/profile/security', 'en-US');
    const section = page.locator('[data-section="passkeys"]');
    await section.getByText('No passkey yet.').waitFor();
    await section.locator('input[data-passkey-name]').fill('This phone');
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await expect.poll(() => section.locator('[data-recovery-code]').count()).toBe(10);
    await shot(page, 'added-375');
    await noOverflow(page);
    await section.getByRole('button', { name: 'I have saved them' }).click();
    await section.locator('[data-passkey="This phone"]').waitFor();
    expect(await signCount()).toHaveLength(1);
    const stored = await server.db.selectFrom('second_factors').select(['kind', 'name', 'credential_id']).where('user_id', '=', user.user.id).execute();
    expect(stored).toEqual([{ kind: 'passkey', name: 'This phone', credential_id: expect.any(String) }]);

    // 2. Log out; log in with the passkey alone.
    await logOutHere();
    await page.goto(`${base}/#/auth/login`);
    const passkeyLogin = page.getByRole('button', { name: 'Log in with a passkey' });
    await passkeyLogin.waitFor();
    await shot(page, 'login-375');
    await noOverflow(page);
    const sessions = async () => (await server.db.selectFrom('sessions').select('id').where('user_id', '=', user.user.id).execute()).length;
    const sessionsBefore = await sessions();
    await passkeyLogin.click();
    await expect.poll(() => hashPath(page)).toBe('/');
    // Signed in as the passkey's user: a session of its own, remembered on this device.
    await expect.poll(async () => (await storage(page)).localAccess).not.toBeNull();
    expect(await sessions()).toBe(sessionsBefore + 1);

    // 3. At 1280 px: the password, then the passkey as the second step.
    await page.setViewportSize(VIEWPORTS.desktop);
    await logOutHere();
    await page.goto(`${base}/#/auth/login`);
    await page.locator('input[name="email"]').fill('keyholder@example.com');
    await page.locator('input[name="password"]').fill(user.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.locator('[data-second-step]').waitFor();
    await shot(page, 'second-step-1280');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect.poll(() => hashPath(page)).toBe('/');

    // 4. Removing the passkey asks for it (step-up), then the list is empty.
    await page.goto(`${base}/#/profile/security`);
    await section.locator('[data-passkey="This phone"]').getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    const stepUp = page.locator('[data-step-up]');
    await stepUp.getByText('Confirm with your passkey').waitFor();
    await shot(page, 'step-up-1280');
    await noOverflow(page);
    await stepUp.getByRole('button', { name: 'Use a passkey' }).click();
    await section.getByText('No passkey yet.').waitFor();
    expect(await server.db.selectFrom('second_factors').select('id').where('user_id', '=', user.user.id).execute()).toHaveLength(0);
    // The authenticator signed four times (the registration, then three assertions the server accepted with a growing counter).
    expect(await signCount()).toEqual([4]);
  });
});
