import type { LocaleCode } from '../api/types';

/** Texts of the embeddable widgets (`qt-profit-card`, `qt-task-list`, `qt-wallet-balance`). */
const enUS = {
  widgets: {
    loading: 'Loading…',
    retry: 'Retry',
    originRefused: 'This site ({{origin}}) is not allowed to show this data. Its owner can allow it on the security page, under “Widgets on other sites”.',
    grantRevoked: 'The owner has revoked this site’s access: the data is no longer shown here.',
    loggedOut: 'Log in to see your trading data.',
    login: 'Log in',
    profitTitle: 'Realized profit',
    profitTotal: 'Total',
    profitToday: 'Today',
    cyclesToday_one: '{{count}} cycle closed today',
    cyclesToday_other: '{{count}} cycles closed today',
    profitChart: 'Last {{count}} days',
    profitChartBar: '{{date}}: {{profit}} USDT',
    tasksTitle: 'Running tasks',
    tasksEmpty: 'No running task yet.',
    cycle: 'Cycle {{current}} of {{total}}',
    floatingProfit: 'Floating',
    realizedProfit: 'Realized',
    testnet: 'Testnet',
    walletTitle: 'Wallet',
    assets: { USDT: 'USDT', CARD: 'Activation cards', POINTS: 'Points', FUEL: 'Fuel' },
    held: 'Held {{amount}}',
    openWallet: 'Open wallet',
  },
};

type Messages = typeof enUS;

const zhCN: Messages = {
  widgets: {
    loading: '加载中…',
    retry: '重试',
    originRefused: '本网站（{{origin}}）未获授权显示这些数据。数据所有者可在安全中心的“站外小组件授权”中授权本网站。',
    grantRevoked: '数据所有者已撤销本网站的授权，这里不再显示其数据。',
    loggedOut: '登录后查看您的交易数据。',
    login: '登录',
    profitTitle: '已实现收益',
    profitTotal: '累计',
    profitToday: '今日',
    cyclesToday_one: '今日完成 {{count}} 轮',
    cyclesToday_other: '今日完成 {{count}} 轮',
    profitChart: '近 {{count}} 天',
    profitChartBar: '{{date}}：{{profit}} USDT',
    tasksTitle: '运行中的任务',
    tasksEmpty: '暂无运行中的任务。',
    cycle: '第 {{current}} / {{total}} 轮',
    floatingProfit: '浮动盈亏',
    realizedProfit: '已实现',
    testnet: '测试网',
    walletTitle: '钱包余额',
    assets: { USDT: 'USDT', CARD: '激活卡', POINTS: '积分', FUEL: '燃料' },
    held: '冻结 {{amount}}',
    openWallet: '打开钱包',
  },
};

const zhTW: Messages = {
  widgets: {
    loading: '載入中…',
    retry: '重試',
    originRefused: '本網站（{{origin}}）未獲授權顯示這些資料。資料擁有者可在安全中心的「站外小工具授權」中授權本網站。',
    grantRevoked: '資料擁有者已撤銷本網站的授權，這裡不再顯示其資料。',
    loggedOut: '登入後查看您的交易資料。',
    login: '登入',
    profitTitle: '已實現收益',
    profitTotal: '累計',
    profitToday: '今日',
    cyclesToday_one: '今日完成 {{count}} 輪',
    cyclesToday_other: '今日完成 {{count}} 輪',
    profitChart: '近 {{count}} 天',
    profitChartBar: '{{date}}：{{profit}} USDT',
    tasksTitle: '執行中的任務',
    tasksEmpty: '暫無執行中的任務。',
    cycle: '第 {{current}} / {{total}} 輪',
    floatingProfit: '浮動盈虧',
    realizedProfit: '已實現',
    testnet: '測試網',
    walletTitle: '錢包餘額',
    assets: { USDT: 'USDT', CARD: '啟用卡', POINTS: '點數', FUEL: '燃料' },
    held: '凍結 {{amount}}',
    openWallet: '開啟錢包',
  },
};

export const widgetMessages = { 'zh-CN': zhCN, 'en-US': enUS, 'zh-TW': zhTW } satisfies Record<LocaleCode, Messages>;
