import Big from 'big.js';
import type { CreateTradePayload, TradeWizardDraft, UpdateTradePayload } from '../../../api/types';
import { pairId } from './draftStore';

/** A rule of the wizard broken before any call; `messageKey` is its localized text. */
export class WizardError extends Error {
  constructor(readonly messageKey: 'wizard.formIncomplete' | 'wizard.missingTaskId', message: string) {
    super(message);
    this.name = 'WizardError';
  }
}

const isPositiveDecimal = (value: string): boolean => {
  try {
    return new Big(value.trim()).gt(0);
  } catch {
    return false;
  }
};

/** Spec section 5: an exchange API, at least one pair, a first order amount above 0 and a template. */
export const isWizardValid = (draft: TradeWizardDraft): boolean =>
  Boolean(draft.selectedApi) &&
  draft.selectedPairs.length > 0 &&
  isPositiveDecimal(String(draft.firstOrderAmount)) &&
  Boolean(draft.selectedTemplate);

const normalizedAmount = (value: string) => new Big(value.trim()).toString();

export const toCreatePayload = (draft: TradeWizardDraft): CreateTradePayload => {
  if (!isWizardValid(draft)) throw new WizardError('wizard.formIncomplete', '表单未填写完整');
  return {
    exchangeId: draft.selectedApi!,
    coinIdList: draft.selectedPairs.map(pairId),
    cycleCount: draft.cycleTimes,
    firstOrderAmount: normalizedAmount(String(draft.firstOrderAmount)),
    // Sized by a total: the server derives the same first order from it and checks the total against the balance.
    ...(draft.sizing === 'invest' && isPositiveDecimal(draft.investAmount) ? { investAmount: normalizedAmount(draft.investAmount) } : {}),
    firstOrderMultiple: draft.firstOrderLeverage,
    running: draft.running,
    replenishStatus: draft.status,
    strategyId: draft.selectedTemplate!,
  };
};

export const toUpdatePayload = (draft: TradeWizardDraft, taskId: string | null | undefined): UpdateTradePayload => {
  if (!taskId) throw new WizardError('wizard.missingTaskId', '缺少任务ID');
  if (!isPositiveDecimal(String(draft.firstOrderAmount)) || !draft.selectedTemplate) {
    throw new WizardError('wizard.formIncomplete', '表单未填写完整');
  }
  return {
    id: taskId,
    cycleCount: draft.cycleTimes,
    firstOrderAmount: normalizedAmount(String(draft.firstOrderAmount)),
    firstOrderMultiple: draft.firstOrderLeverage,
    running: draft.running,
    status: draft.status,
    strategyId: draft.selectedTemplate,
  };
};
