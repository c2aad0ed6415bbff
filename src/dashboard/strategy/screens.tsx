import { placeholderScreen } from '../layout/Screen';

export const StrategyListPage = placeholderScreen('page.strategy', { back: false });
export const StrategyAddPage = placeholderScreen('page.strategyAdd');
export const StrategyEditPage = placeholderScreen('page.strategyEdit');
