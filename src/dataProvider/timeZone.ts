/** The browser's IANA time zone: the days of profit figures and records follow it (Asia/Shanghai when the browser says none). */
export const browserTimeZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'Asia/Shanghai';
  } catch {
    return 'Asia/Shanghai';
  }
};
