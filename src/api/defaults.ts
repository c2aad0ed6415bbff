import type { LocaleCode, TradeWizardDraft } from './types';

/** Business constants of spec section 9. */
export const HTTP_TIMEOUT_MS = 10_000;
export const NOTIFICATION_TIMEOUT_MS = 5_000;
export const MAX_TASKS_PER_COIN = 3;
export const SUPPORTED_LOCALES: readonly LocaleCode[] = ['zh-CN', 'en-US', 'zh-TW'];
export const DEFAULT_LOCALE: LocaleCode = 'zh-CN';
export const LOCALE_STORAGE_KEY = 'locale';
export const WIZARD_STORAGE_KEY = 'wizard-trade';
/** cycleCount that means "until stopped". */
export const UNLIMITED_CYCLES = 9999;

export const isLocaleCode = (value: unknown): value is LocaleCode =>
  typeof value === 'string' && (SUPPORTED_LOCALES as readonly string[]).includes(value);

export const defaultWizardDraft = (): TradeWizardDraft => ({
  selectedApi: null,
  selectedApiName: '',
  selectedPairs: [],
  firstOrderAmount: '10',
  sizing: 'firstOrder',
  investAmount: '',
  firstOrderLeverage: false,
  cycleTimes: UNLIMITED_CYCLES,
  selectedTemplate: null,
  templateName: '',
  running: true,
  status: 'replenish_open',
});
