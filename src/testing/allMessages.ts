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

type Tree = Record<string, unknown>;
const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Texts of several sources merged key by key, as i18next merges its bundles (the frame and an area may share a namespace). */
const merge = (target: Tree, source: Tree): Tree => {
  for (const [key, value] of Object.entries(source)) target[key] = isTree(value) && isTree(target[key]) ? merge({ ...(target[key] as Tree) }, value) : value;
  return target;
};

export const allMessages = (code: LocaleCode): Tree => [resources[code].translation as Tree, ...areaMessages.map((messages) => messages[code] as Tree)].reduce((all, tree) => merge(all, tree), {});
