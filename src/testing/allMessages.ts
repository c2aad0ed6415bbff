import type { LocaleCode } from '../api/types';
import { resources } from '../i18n/resources';

/**
 * Every text of the product per locale, for tests: the frame, react-admin's
 * and the errors (src/i18n), each dashboard area's own (its messages.ts) and
 * the widgets'.
 */
const areaMessages = Object.values(
  import.meta.glob<Record<string, Record<LocaleCode, Record<string, unknown>>>>(['../dashboard/*/messages.ts', '../widgets/messages.ts'], { eager: true }),
).flatMap((module) => Object.values(module));

export const allMessages = (code: LocaleCode): Record<string, unknown> => Object.assign({}, resources[code].translation, ...areaMessages.map((messages) => messages[code]));
