import type { StrategyTemplate } from '../../api/strategy';

/** System templates carry a key as their name; the user's own keep theirs. */
export const templateLabel = (template: Pick<StrategyTemplate, 'name' | 'system'>, translate: (key: string) => string) =>
  template.system ? translate(`strategy.templateName.${template.name}`) : template.name;

/** The system template a newcomer starts with: the wizard chooses it unless told otherwise. */
export const RECOMMENDED_TEMPLATE = 'conservative';
