import { expect } from 'vitest';
import type { Journey } from './harness';

/** The account journeys' steps through the dashboard's own forms (accounts.test.ts, accountRecovery.test.ts). */
export const PASSWORD = 'Sturdy-Passw0rd!';

export const registerThroughUi = async (j: Journey, email: string, texts: { sendCode: string; submit: string; home: string }) => {
  const { page } = j;
  await page.goto(j.url('/auth/register'));
  await page.locator('input[name="email"]').fill(email);
  await page.getByRole('button', { name: texts.sendCode }).click();
  // A mail to this address (the server may have mailed others before).
  await expect.poll(() => j.server.outbox().some((text) => text.includes(`To: ${email}`)), { timeout: 10000 }).toBe(true);
  await page.locator('input[name="captcha"]').fill(j.server.lastCode(email));
  await page.locator('input[name="nickname"]').fill('小明');
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('input[name="secondPassword"]').fill(PASSWORD);
  await page.getByRole('button', { name: texts.submit, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: texts.home }).waitFor();
};

export const logoutThroughUi = async (j: Journey, names: { menu: RegExp; logout: RegExp }) => {
  await j.page.getByRole('button', { name: names.menu }).click();
  await j.page.getByRole('menuitem', { name: names.logout }).click();
  await j.page.locator('input[name="password"]').waitFor();
};

export const loginThroughUi = async (j: Journey, email: string, password: string, remember: boolean) => {
  const { page } = j;
  await page.goto(j.url('/auth/login'));
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  const box = page.locator('input[name="rememberMe"]');
  if ((await box.isChecked()) !== remember) await box.click();
  await page.locator('button[type="submit"]').click();
};
