/**
 * "Chrome · Windows" from a user agent, for the session list: the few browsers
 * and systems people sign in with, by the tokens their user agents carry
 * (order matters: Edge and Opera also say Chrome, Chrome also says Safari).
 */
const BROWSERS: readonly [RegExp, string][] = [
  [/EdgA?\/|Edg\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/MicroMessenger\//, 'WeChat'],
  [/UCBrowser\//, 'UC Browser'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/curl\//, 'curl'],
  [/Node\.js|undici|node-fetch/, 'Node.js'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

export interface Device {
  browser: string | null;
  system: string | null;
}

export const deviceOf = (userAgent: string | null | undefined): Device => {
  const ua = userAgent ?? '';
  return {
    browser: BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? null,
    system: SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1] ?? null,
  };
};

/** "Chrome · Windows", or null when nothing is recognised. */
export const deviceLabel = (userAgent: string | null | undefined): string | null => {
  const { browser, system } = deviceOf(userAgent);
  const parts = [browser, system].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : null;
};
