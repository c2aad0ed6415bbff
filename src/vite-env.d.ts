/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base address of the API ('' = same origin). */
  readonly VITE_API_BASE?: string;
  /** Request signing secret; must equal the server's API_SIGN_SECRET. */
  readonly VITE_API_SIGN_SECRET?: string;
}
