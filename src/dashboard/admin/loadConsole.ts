import type { ReactNode } from 'react';
import { addMessages } from '../../i18n/i18nProvider';
import { loadAreaTexts } from '../domain';

export const OPERATOR_ROLE = 'operator';

/** The console's path prefix (react-admin resources `admin/users`, `admin/deposits`, ...). */
export const CONSOLE_PATH = '/admin';

/**
 * react-admin's function child of <AdminUI>: given the permissions (the identity's role), the
 * operator console's resources and pages, or nothing. The console's code is a separate chunk
 * loaded only for operators, so ordinary users never download it.
 */
export const operatorConsole = (permissions: unknown): ReactNode | Promise<ReactNode> =>
  permissions === OPERATOR_ROLE
    ? Promise.all([import('./console'), import('./messages'), loadAreaTexts()]).then(
        ([module, texts]) => {
          // The console's texts come with its code (its menu's are the frame's, in the first load).
          addMessages(texts.messages);
          return module.consoleElements;
        },
        // A chunk that cannot load leaves the rest of the dashboard working.
        (error: unknown) => {
          console.error('The operator console could not be loaded', error);
          return null;
        },
      )
    : null;
