import { useEffect, type ReactNode } from 'react';
import { Authenticated, useLogout } from 'ra-core';
import { Navigate } from 'react-router-dom';
import { guardDecision } from './authProvider';
import { subscribeSessionExpired } from './client';
import { sessionStore } from './session';

/**
 * Protected page: react-admin's checkAuth runs the guard rows (access token:
 * allowed; only a refresh token: refresh, else clear and go to /auth/login;
 * neither: /auth/login) before the page renders.
 */
export const Protected = ({ children }: { children: ReactNode }) => <Authenticated>{children}</Authenticated>;

/** Guest-only page (requiresGuest): a visitor with an access token goes to /. */
export const GuestOnly = ({ children }: { children: ReactNode }) =>
  guardDecision('guest', {
    accessToken: sessionStore.getAccessToken(),
    refreshToken: sessionStore.getRefreshToken(),
  }) === 'home' ? (
    <Navigate to="/" replace />
  ) : (
    <>{children}</>
  );

/** Mounted in the main layout: a session that could not be refreshed logs out and lands on /auth/login. */
export const SessionExpiryRedirect = () => {
  const logout = useLogout();
  useEffect(() => subscribeSessionExpired(() => void logout()), [logout]);
  return null;
};
