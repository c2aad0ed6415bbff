import { beforeEach, describe, it, expect, vi } from 'vitest';
import { enUS as muiEnUS, zhCN as muiZhCN, zhTW as muiZhTW } from '@mui/material/locale';
import { DEFAULT_LOCALE, LOCALE_STORAGE_KEY, SUPPORTED_LOCALES } from '../api/defaults';
import { CATALOGUE_CODES } from '../api/errors';
import type { LocaleCode } from '../api/types';
import { createAuthProvider } from '../authProvider/authProvider';
import { createSessionStore } from '../authProvider/session';
import { createHttpClient } from '../dataProvider/httpClient';
import { allMessages } from '../testing/allMessages';
import { createFakeServer, ok } from '../testing/fakeServer';
import {
  LocaleSwitchInProgressError,
  addMessages,
  createI18nProvider,
  currentLocale,
  isSwitchingLocale,
  subscribeLocaleSwitching,
  translate,
} from './i18nProvider';
import { LOCALES, localeInfo } from './locales';
import { getStoredLocale, storeLocale } from './storage';

type Provider = Awaited<ReturnType<typeof createI18nProvider>>;
let provider: Provider;

beforeEach(async () => {
  // The i18n module is a page singleton: put it back to the default locale before every test.
  provider = await createI18nProvider();
  await provider.changeLocale('zh-CN');
  localStorage.clear();
});

/** `{a: {b: 'x'}}` -> `{'a.b': 'x'}` */
const flatten = (value: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> => {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      flatten(child, prefix ? `${prefix}.${key}` : key, out);
    }
  } else {
    out[prefix] = value;
  }
  return out;
};

const allOf = allMessages;
const flat: Record<LocaleCode, Record<string, unknown>> = {
  'zh-CN': flatten(allOf('zh-CN')),
  'en-US': flatten(allOf('en-US')),
  'zh-TW': flatten(allOf('zh-TW')),
};

/**
 * i18next plural keys: react-admin's English "one |||| many" messages become `key_one` / `key_other`,
 * while Chinese (which has no grammatical plural) keeps a single `key`; i18next falls back from the
 * plural forms to the bare key. Parity is therefore checked on the key without its plural suffix.
 */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const baseKeys = (code: LocaleCode) => new Set(Object.keys(flat[code]).map((k) => k.replace(PLURAL_SUFFIX, '')));

describe('locale start-up and storage', () => {
  it('defaults to zh-CN when nothing is stored', async () => {
    vi.resetModules();
    localStorage.clear();
    const fresh = await import('./i18nProvider');
    expect(fresh.currentLocale()).toBe('zh-CN');
    const freshProvider = await fresh.createI18nProvider();
    expect(freshProvider.getLocale()).toBe('zh-CN');
    expect(document.documentElement.lang).toBe('zh-CN');
    expect(fresh.translate('error.fallback')).toBe('操作失败');
    expect(DEFAULT_LOCALE).toBe('zh-CN');
  });

  it('starts in the stored locale', async () => {
    vi.resetModules();
    localStorage.setItem('locale', 'en-US');
    const fresh = await import('./i18nProvider');
    expect(fresh.currentLocale()).toBe('en-US');
    await fresh.createI18nProvider();
    expect(document.documentElement.lang).toBe('en-US');
    expect(fresh.translate('error.fallback')).toBe('Operation failed');
  });

  it('ignores an unsupported stored value and starts in zh-CN', async () => {
    vi.resetModules();
    localStorage.setItem('locale', 'fr-FR');
    const fresh = await import('./i18nProvider');
    expect(fresh.currentLocale()).toBe('zh-CN');
    expect(getStoredLocale()).toBe('zh-CN');
  });

  it('the storage helpers use the plain key "locale"', () => {
    expect(LOCALE_STORAGE_KEY).toBe('locale');
    expect(getStoredLocale()).toBe('zh-CN');
    storeLocale('zh-TW');
    expect(localStorage.getItem('locale')).toBe('zh-TW');
    expect(getStoredLocale()).toBe('zh-TW');
  });

  it('changeLocale stores the choice under "locale", switches texts and updates <html lang>', async () => {
    await provider.changeLocale('en-US');
    expect(localStorage.getItem('locale')).toBe('en-US');
    expect(provider.getLocale()).toBe('en-US');
    expect(currentLocale()).toBe('en-US');
    expect(document.documentElement.lang).toBe('en-US');
    expect(document.documentElement.dir).toBe('ltr');
    expect(translate('error.11003')).toBe('Insufficient balance');
    expect(provider.translate('ra.action.save')).toBe('Save');

    await provider.changeLocale('zh-TW');
    expect(localStorage.getItem('locale')).toBe('zh-TW');
    expect(document.documentElement.lang).toBe('zh-TW');
    expect(translate('error.fallback')).toBe('操作失敗');
  });

  it('the stored locale survives clearing the react-admin store keys', async () => {
    await provider.changeLocale('en-US');
    localStorage.setItem('RaStore.sidebar.open', 'true');
    localStorage.setItem('RaStore.strategy.listParams', '{}');
    for (const key of Object.keys(localStorage)) if (key.startsWith('RaStore.')) localStorage.removeItem(key);
    expect(localStorage.getItem('RaStore.sidebar.open')).toBeNull();
    expect(localStorage.getItem('locale')).toBe('en-US');

    vi.resetModules();
    const fresh = await import('./i18nProvider');
    expect(fresh.currentLocale()).toBe('en-US');
  });

  it('the stored locale survives a logout through the authProvider', async () => {
    await provider.changeLocale('zh-TW');
    const server = createFakeServer({ 'POST /api/user/logout': () => ok(null) });
    const store = createSessionStore();
    store.save({ accessToken: 'at', refreshToken: 'rt', rememberMe: true });
    const auth = createAuthProvider(
      createHttpClient({
        baseUrl: '',
        signSecret: 'secret',
        tokens: store,
        getLocale: currentLocale,
        onSessionExpired: () => undefined,
        fetch: server.fetch,
      }),
      store,
    );
    await expect(auth.logout()).resolves.toBe('/auth/login');
    expect(server.requests[0]!.headers['Accept-Language']).toBe('zh-TW');
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('locale')).toBe('zh-TW');
    expect(currentLocale()).toBe('zh-TW');
  });
});

describe('locale switching', () => {
  it('is blocked while a switch is in progress: the second request rejects and the first one wins', async () => {
    const events: boolean[] = [];
    const unsubscribe = subscribeLocaleSwitching(() => events.push(isSwitchingLocale()));
    try {
      const first = provider.changeLocale('en-US');
      expect(isSwitchingLocale()).toBe(true);
      const second = provider.changeLocale('zh-TW');
      await expect(second).rejects.toBeInstanceOf(LocaleSwitchInProgressError);
      await expect(second).rejects.toMatchObject({ name: 'LocaleSwitchInProgressError' });
      await first;
      expect(isSwitchingLocale()).toBe(false);
      expect(currentLocale()).toBe('en-US');
      expect(localStorage.getItem('locale')).toBe('en-US');
      expect(document.documentElement.lang).toBe('en-US');
      expect(events).toEqual([true, false]);
    } finally {
      unsubscribe();
    }
    // Once the switch has finished, switching works again.
    await provider.changeLocale('zh-TW');
    expect(currentLocale()).toBe('zh-TW');
  });

  it('rejects an unsupported locale and changes nothing', async () => {
    await expect(provider.changeLocale('fr-FR')).rejects.toThrow(/Unsupported locale/);
    expect(currentLocale()).toBe('zh-CN');
    expect(localStorage.getItem('locale')).toBeNull();
    expect(isSwitchingLocale()).toBe(false);
    await provider.changeLocale('en-US');
    expect(currentLocale()).toBe('en-US');
  });

  it('offers the three locales to react-admin', () => {
    expect(provider.getLocales?.().map((l) => l.locale)).toEqual(['zh-CN', 'en-US', 'zh-TW']);
  });
});

describe('locale metadata', () => {
  it('has code, label, nativeLabel, flag, direction and uiLang for the 3 supported locales', () => {
    expect(LOCALES.map((l) => l.code)).toEqual(['zh-CN', 'en-US', 'zh-TW']);
    expect(SUPPORTED_LOCALES).toEqual(['zh-CN', 'en-US', 'zh-TW']);
    for (const locale of LOCALES) {
      expect(Object.keys(locale).sort()).toEqual(['code', 'direction', 'flag', 'label', 'nativeLabel', 'uiLang']);
      expect(locale.label).toMatch(/\S/);
      expect(locale.nativeLabel).toMatch(/\S/);
      expect(locale.flag).toMatch(/\S/);
      expect(['ltr', 'rtl']).toContain(locale.direction);
      expect(typeof locale.uiLang).toBe('object');
    }
    expect(localeInfo('zh-CN')).toMatchObject({ nativeLabel: '简体中文', direction: 'ltr', uiLang: muiZhCN });
    expect(localeInfo('en-US')).toMatchObject({ nativeLabel: 'English', direction: 'ltr', uiLang: muiEnUS });
    expect(localeInfo('zh-TW')).toMatchObject({ nativeLabel: '繁體中文', direction: 'ltr', uiLang: muiZhTW });
  });
});

describe('message resources', () => {
  const codes = ['zh-CN', 'en-US', 'zh-TW'] as const;

  it('every key present in any locale is present in all locales', () => {
    const all = new Set(codes.flatMap((code) => [...baseKeys(code)]));
    const missing = Object.fromEntries(
      codes.map((code) => {
        const keys = baseKeys(code);
        return [code, [...all].filter((key) => !keys.has(key)).sort()];
      }),
    );
    expect(missing).toEqual({ 'zh-CN': [], 'en-US': [], 'zh-TW': [] });
    expect(all.size).toBeGreaterThan(200);
  });

  it("the product's own keys are identical across locales (no plural tolerance needed)", () => {
    const own = (code: LocaleCode) => Object.keys(flat[code]).filter((k) => !k.startsWith('ra.')).sort();
    expect(own('en-US')).toEqual(own('zh-CN'));
    expect(own('zh-TW')).toEqual(own('zh-CN'));
  });

  it('every text is a non-empty string', () => {
    const bad = codes.flatMap((code) =>
      Object.entries(flat[code])
        .filter(([key, value]) => typeof value !== 'string' || (value.trim() === '' && key !== 'ra.boolean.null'))
        .map(([key]) => `${code}:${key}`),
    );
    expect(bad).toEqual([]);
  });

  it('plural messages resolve in every locale', async () => {
    expect(provider.translate('ra.action.bulk_actions', { smart_count: 3 })).toBe('已选择 3 项');
    await provider.changeLocale('en-US');
    expect(provider.translate('ra.action.bulk_actions', { smart_count: 1 })).toBe('1 item selected');
    expect(provider.translate('ra.action.bulk_actions', { smart_count: 3 })).toBe('3 items selected');
    await provider.changeLocale('zh-TW');
    expect(provider.translate('ra.action.bulk_actions', { smart_count: 3 })).toMatch(/3/);
  });

  it("the product's counted texts agree with their count in English", async () => {
    addMessages({ 'zh-CN': allOf('zh-CN'), 'en-US': allOf('en-US'), 'zh-TW': allOf('zh-TW') } as never);
    await provider.changeLocale('en-US');
    expect(provider.translate('home.todayHint', { count: 1 })).toBe('1 cycle closed today');
    expect(provider.translate('home.todayHint', { count: 3 })).toBe('3 cycles closed today');
    expect(provider.translate('home.runningOf', { total: 1, count: 1 })).toBe('of 1 task');
    expect(provider.translate('home.runningOf', { total: 2, count: 2 })).toBe('of 2 tasks');
    expect(provider.translate('strategy.levelCount', { count: 1 })).toBe('1 replenish level');
    expect(provider.translate('strategy.levelCount', { count: 5 })).toBe('5 replenish levels');
    expect(provider.translate('profile.activate.cards', { count: 1, amount: '1' })).toBe('1 card');
    expect(provider.translate('profile.activate.cards', { count: 2, amount: '2' })).toBe('2 cards');
    await provider.changeLocale('zh-CN');
    expect(provider.translate('home.todayHint', { count: 1 })).toMatch(/1/);
    expect(provider.translate('strategy.levelCount', { count: 1 })).toBe('1 档补仓');
  });

  it('every key that differs only by a plural suffix still resolves to a text in every locale', async () => {
    // The areas' texts too (the pages add them as they load).
    addMessages({ 'zh-CN': allOf('zh-CN'), 'en-US': allOf('en-US'), 'zh-TW': allOf('zh-TW') } as never);
    const pluralBases = [
      ...new Set(
        codes.flatMap((code) => Object.keys(flat[code]).filter((k) => PLURAL_SUFFIX.test(k)).map((k) => k.replace(PLURAL_SUFFIX, ''))),
      ),
    ];
    expect(pluralBases.length).toBeGreaterThan(0);
    const unresolved: string[] = [];
    for (const code of codes) {
      await provider.changeLocale(code);
      for (const key of pluralBases) {
        for (const count of [1, 2]) {
          const text = provider.translate(key, { smart_count: count, name: 'x', recordRepresentation: 'x' });
          if (text === key || text.trim() === '') unresolved.push(`${code}:${key}:${count}`);
        }
      }
    }
    expect(unresolved).toEqual([]);
  });

  /** One title key per screen of spec section 2 (protected, guest and not-found). */
  const PAGE_TITLE_KEYS = [
    'home', 'trade', 'strategy', 'profile',
    'article', 'articleDetail', 'strategyAdd', 'strategyEdit',
    'tradeAdd', 'tradeDetail', 'orderHistory', 'allOrderHistory', 'pairSelect',
    'exchange', 'exchangeAdd', 'exchangeEdit',
    'profileEdit', 'activate', 'memberLevel', 'fuel', 'security',
    'profitDetail', 'dailyProfitDetail', 'profitRank', 'invite', 'community',
    'wallet', 'recharge', 'withdraw', 'transfer', 'swap', 'pointsTransfer',
    'usdtRecords', 'cardRecords', 'pointsRecords',
    'login', 'register', 'forgotPassword', 'notFound',
  ].map((key) => `page.${key}`);

  it('every page title key exists, and the page.* keys are identical across locales', () => {
    expect(PAGE_TITLE_KEYS).toHaveLength(39);
    const pageKeys = (code: LocaleCode) => Object.keys(flat[code]).filter((k) => k.startsWith('page.')).sort();
    for (const code of codes) {
      const missing = PAGE_TITLE_KEYS.filter((key) => typeof flat[code][key] !== 'string' || flat[code][key] === '');
      expect({ code, missing }).toEqual({ code, missing: [] });
    }
    expect(pageKeys('en-US')).toEqual(pageKeys('zh-CN'));
    expect(pageKeys('zh-TW')).toEqual(pageKeys('zh-CN'));
  });

  it('every page.* key written in the dashboard sources exists in every locale', () => {
    const sources = import.meta.glob('../dashboard/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });
    const used = new Set<string>();
    for (const [file, text] of Object.entries(sources)) {
      if (/\.test\.tsx?$/.test(file)) continue;
      for (const match of String(text).matchAll(/['"`](page\.[A-Za-z0-9_]+)['"`]/g)) used.add(match[1]!);
    }
    const missing = codes.flatMap((code) => [...used].filter((key) => typeof flat[code][key] !== 'string').map((k) => `${code}:${k}`));
    expect(missing).toEqual([]);
  });

  it('every text key written in the dashboard and widget sources exists in every locale', () => {
    const sources = import.meta.glob(['../dashboard/**/*.{ts,tsx}', '../widgets/**/*.{ts,tsx}'], { query: '?raw', import: 'default', eager: true });
    const namespaces = [...new Set(codes.flatMap((code) => Object.keys(allOf(code))))].filter((ns) => ns !== 'ra');
    const pattern = new RegExp(`['"\`]((?:${namespaces.join('|')})\\.[A-Za-z0-9_.]+[A-Za-z0-9_])['"\`]`, 'g');
    const used = new Set<string>();
    for (const [file, text] of Object.entries(sources)) {
      if (/\.test\.tsx?$/.test(file) || /messages\.ts$/.test(file)) continue;
      for (const match of String(text).matchAll(pattern)) used.add(match[1]!);
    }
    // MUI's palette colours look like keys of the error namespace.
    for (const colour of ['error.main', 'error.light', 'error.dark']) used.delete(colour);
    expect(used.size).toBeGreaterThan(300);
    const missing = codes.flatMap((code) =>
      [...used].filter((key) => flat[code][key] === undefined && flat[code][`${key}_other`] === undefined && !Object.keys(flat[code]).some((k) => k.startsWith(`${key}.`))).map((k) => `${code}:${k}`),
    );
    expect(missing).toEqual([]);
  });

  it('every catalogue code has error.<code> in every locale, and it is what the user sees', async () => {
    expect(CATALOGUE_CODES.length).toBe(38);
    for (const code of codes) {
      const missing = CATALOGUE_CODES.filter((c) => typeof flat[code][`error.${c}`] !== 'string' || flat[code][`error.${c}`] === '');
      expect({ code, missing }).toEqual({ code, missing: [] });
      await provider.changeLocale(code);
      for (const c of CATALOGUE_CODES) expect(translate(`error.${c}`)).toBe(flat[code][`error.${c}`]);
    }
  });

  it('the texts of one code differ between English and Chinese (they are translated, not copied)', () => {
    const untranslated = CATALOGUE_CODES.filter((c) => flat['en-US'][`error.${c}`] === flat['zh-CN'][`error.${c}`]);
    expect(untranslated).toEqual([]);
  });

  it('holds the local messages of the spec', () => {
    expect(flat['zh-CN']['wizard.formIncomplete']).toBe('表单未填写完整');
    expect(flat['zh-CN']['wizard.missingTaskId']).toBe('缺少任务ID');
    expect(flat['en-US']['auth.noRefreshToken']).toBe('No refresh token available');
    expect(flat['zh-CN']['trade.createSuccess']).toBe('创建交易成功');
    expect(flat['zh-CN']['trade.updateSuccess']).toBe('更新交易成功');
    expect(flat['zh-CN']['trade.createFailed']).toBe('创建交易失败');
    expect(flat['zh-CN']['trade.updateFailed']).toBe('更新交易失败');
    expect(flat['zh-CN']['error.fallback']).toBe('操作失败');
    expect(flat['en-US']['error.fallback']).toBe('Operation failed');
    for (const code of codes) expect(flat[code]['error.api']).toBe('API Error: {{code}}');
  });

  it('translate interpolates the API error text', () => {
    expect(translate('error.api', { code: 12345 })).toBe('API Error: 12345');
    expect(translate('error.timeout')).toBe('服务器响应超时，请重试。');
  });
});
