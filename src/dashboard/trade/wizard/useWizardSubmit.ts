import { useState } from 'react';
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { AppDataProvider } from '../../../dataProvider/dataProvider';
import { remedyOf } from '../RefusalWithRemedy';
import { refusalField, refusalText } from '../taskText';
import { wizardDraft } from './draftStore';
import { WizardError, toCreatePayload, toUpdatePayload } from './submit';

/**
 * Submits the wizard: local rules first, then the call, then the toasts of
 * spec section 7 ('创建交易成功' / '更新交易成功', or the error's message
 * with the figures the server sent, else '创建交易失败' / '更新交易失败'). A
 * refusal the user can remedy, or one about a field, is not toasted: it stays
 * as `refusal`, for the page to show at its field beside its remedy.
 */
export const useWizardSubmit = () => {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const navigate = useNavigate();
  const [refusal, setRefusal] = useState<unknown>(null);

  const failure = (error: unknown, fallbackKey: string) => {
    // A refusal with a remedy, or about one field, stays on the page beside that field.
    if (remedyOf(error) !== null || refusalField(error) !== null) {
      setRefusal(error);
      return false;
    }
    const message =
      error instanceof WizardError
        ? translate(error.messageKey)
        : error instanceof Error && error.message
          ? refusalText(error, translate, locale)
          : translate(fallbackKey);
    notify(message, { type: 'error' });
    return false;
  };

  const create = async (): Promise<boolean> => {
    setRefusal(null);
    try {
      await dataProvider.tradeAdd(toCreatePayload(wizardDraft.get()));
    } catch (error) {
      return failure(error, 'trade.createFailed');
    }
    wizardDraft.reset();
    notify(translate('trade.createSuccess'), { type: 'success' });
    navigate('/trade');
    return true;
  };

  const update = async (taskId: string | null | undefined): Promise<boolean> => {
    setRefusal(null);
    try {
      await dataProvider.tradeUpdate(toUpdatePayload(wizardDraft.get(), taskId));
    } catch (error) {
      return failure(error, 'trade.updateFailed');
    }
    notify(translate('trade.updateSuccess'), { type: 'success' });
    return true;
  };

  return { create, update, refusal, clearRefusal: () => setRefusal(null) };
};
