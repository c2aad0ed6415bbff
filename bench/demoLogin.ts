import { DEV_SIGN_SECRET, signBody } from '../src/api/signing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../server/src/demo/account';

/** The demo account's login answer (its envelope) from a running server, signed as the dashboard signs it. */
export const loginDemo = async (base: string) =>
  (
    await fetch(`${base}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(signBody('POST', '/api/user/login', { email: DEMO_EMAIL, password: DEMO_PASSWORD }, DEV_SIGN_SECRET)),
    })
  ).json();
