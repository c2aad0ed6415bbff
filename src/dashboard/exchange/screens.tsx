import { placeholderScreen } from '../layout/Screen';

export const ExchangeListPage = placeholderScreen('page.exchange');
export const ExchangeAddPage = placeholderScreen('page.exchangeAdd');
export const ExchangeEditPage = placeholderScreen('page.exchangeEdit');
