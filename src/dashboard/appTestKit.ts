import { vi } from 'vitest';
import { createI18nProvider } from '../i18n/i18nProvider';
import { resetWizardNavigationTracker } from './trade/wizard/navigation';
import { wizardDraft } from './trade/wizard/draftStore';

/** Before each whole-app test: zh-CN, empty storage, no wizard draft nor wizard navigation left by the test before. */
export const resetApp = async () => {
  const provider = await createI18nProvider();
  if (provider.getLocale() !== 'zh-CN') await provider.changeLocale('zh-CN');
  localStorage.clear();
  wizardDraft.reset();
  resetWizardNavigationTracker();
};

/** After each: the globals a test stubbed (fetch, timers' clocks) are the real ones again. */
export const restoreGlobals = () => vi.unstubAllGlobals();
