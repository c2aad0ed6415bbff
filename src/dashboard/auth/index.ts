import type { Domain } from '../domain';
import { ForgotPasswordPage } from './ForgotPasswordPage';
import { LoginPage } from './LoginPage';
import { messages } from './messages';
import { RegisterPage } from './RegisterPage';

/** The guest-only pages (requiresGuest), in the auth layout. */
export const auth = {
  guestRoutes: [
    { path: '/auth/login', titleKey: 'page.login', Component: LoginPage },
    { path: '/auth/register', titleKey: 'page.register', Component: RegisterPage },
    { path: '/auth/forgot-password', titleKey: 'page.forgotPassword', Component: ForgotPasswordPage },
  ],
  messages,
} satisfies Domain;
