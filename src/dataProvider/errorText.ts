export type Translate = (key: string, options?: Record<string, unknown>) => string;

let current: Translate = (key) => key;

/**
 * The translator error texts use. The dashboard's i18n module registers its
 * i18next translation; the widgets register their own small one, so the
 * shared HTTP client never pulls the dashboard's i18n stack into a bundle.
 */
export const setErrorTranslator = (translate: Translate): void => {
  current = translate;
};

export const translateError: Translate = (key, options) => current(key, options);
