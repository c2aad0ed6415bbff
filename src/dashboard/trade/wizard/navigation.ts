import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { wizardDraft, type WizardDraftStore } from './draftStore';

export const WIZARD_PATHS: readonly string[] = ['/trade/add', '/trade/pair-select'];
const isWizardPath = (pathname: string) => WIZARD_PATHS.includes(pathname);

/**
 * The draft's reset rules (spec section 2): leaving /trade/add or
 * /trade/pair-select for another page resets it, and so does the first load
 * of any other page while pairs are already selected.
 */
export const createWizardNavigationTracker = (store: WizardDraftStore) => {
  let previous: string | null = null;
  return (pathname: string): void => {
    if (previous === null) {
      if (!isWizardPath(pathname) && store.get().selectedPairs.length > 0) store.reset();
    } else if (previous !== pathname && isWizardPath(previous) && !isWizardPath(pathname)) {
      store.reset();
    }
    previous = pathname;
  };
};

/** One tracker per page load, shared by every layout that mounts the watcher. */
let tracker = createWizardNavigationTracker(wizardDraft);

/** Tests simulate a fresh page load with this. */
export const resetWizardNavigationTracker = (store: WizardDraftStore = wizardDraft) => {
  tracker = createWizardNavigationTracker(store);
};

export const WizardRouteWatcher = () => {
  const { pathname } = useLocation();
  useEffect(() => tracker(pathname), [pathname]);
  return null;
};
