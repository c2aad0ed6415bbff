/**
 * The widgets bundle's single entry: `<qt-profit-card>`, `<qt-task-list>` and
 * `<qt-wallet-balance>`, each defined once.
 */
import { defineWidget } from './define';
import { ProfitCard } from './ProfitCard';
import { TaskList } from './TaskList';
import { WalletBalance } from './WalletBalance';

export const WIDGET_NAMES = ['qt-profit-card', 'qt-task-list', 'qt-wallet-balance'] as const;

defineWidget('qt-profit-card', ProfitCard);
defineWidget('qt-task-list', TaskList, { limit: 'number' });
defineWidget('qt-wallet-balance', WalletBalance);

export { ProfitCard, TaskList, WalletBalance };
export type { WidgetProps } from './shared';
