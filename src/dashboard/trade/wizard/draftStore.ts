import { useSyncExternalStore } from 'react';
import { WIZARD_STORAGE_KEY, defaultWizardDraft } from '../../../api/defaults';
import type { PairRef, TradeWizardDraft } from '../../../api/types';

const storage = (): Storage | undefined => {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
};

const load = (): TradeWizardDraft => {
  try {
    const text = storage()?.getItem(WIZARD_STORAGE_KEY);
    if (text) return { ...defaultWizardDraft(), ...(JSON.parse(text) as Partial<TradeWizardDraft>) };
  } catch {
    // A corrupt draft is as good as none.
  }
  return defaultWizardDraft();
};

/**
 * The trade wizard draft (spec sections 3 and 4): saved to session storage
 * under `wizard-trade` on every change, removed on reset and after a
 * successful creation.
 */
export const createWizardDraftStore = () => {
  let draft = load();
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((listener) => listener());

  return {
    get: (): TradeWizardDraft => draft,
    update(patch: Partial<TradeWizardDraft>): void {
      draft = { ...draft, ...patch };
      try {
        storage()?.setItem(WIZARD_STORAGE_KEY, JSON.stringify(draft));
      } catch {
        // Quota or privacy mode: the draft still lives for this page.
      }
      emit();
    },
    reset(): void {
      draft = defaultWizardDraft();
      try {
        storage()?.removeItem(WIZARD_STORAGE_KEY);
      } catch {
        // Nothing stored, nothing to remove.
      }
      emit();
    },
    /** Re-reads session storage, as a fresh page load would. */
    reload(): void {
      draft = load();
      emit();
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};

export type WizardDraftStore = ReturnType<typeof createWizardDraftStore>;
export const wizardDraft = createWizardDraftStore();

export const useWizardDraft = (store: WizardDraftStore = wizardDraft): TradeWizardDraft =>
  useSyncExternalStore(store.subscribe, store.get, store.get);

export const pairId = (pair: PairRef): string => (typeof pair === 'string' ? pair : pair.id);
