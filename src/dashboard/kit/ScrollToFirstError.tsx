import { useEffect } from 'react';
import { useFormState } from 'react-hook-form';
import { scrollToFirstErrorSoon } from './firstError';

/**
 * Inside a react-admin (react-hook-form) form: after a submit that its rules
 * refuse, the first field marked wrong is brought into view and focused, however
 * far above the save button it is.
 */
export const ScrollToFirstError = () => {
  const { submitCount, errors } = useFormState();
  const invalid = Object.keys(errors).length > 0;
  useEffect(() => {
    if (submitCount > 0 && invalid) scrollToFirstErrorSoon();
    // Once per refused submit, not on every keystroke that changes the errors.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [submitCount]);
  return null;
};
