/**
 * The shared demo account (README "Run"): created only on the embedded
 * database outside production. Its e-mail is how the dashboard knows a
 * session is the demo's (a banner, and the controls it cannot use hidden).
 */
export const DEMO_EMAIL = 'demo@example.com';

/** GET /api/user/demo: the demo's published login, or null when this server has none. */
export interface DemoAccount {
  email: string;
  password: string;
}

export const isDemoEmail = (email: string | undefined | null): boolean => (email ?? '').trim().toLowerCase() === DEMO_EMAIL;
