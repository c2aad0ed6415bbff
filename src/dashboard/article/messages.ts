import type { Messages as LocaleMessages } from '../../i18n/i18nProvider';

/** Texts of the article pages. */
const enUS = {
  article: {
    fallbackNote: 'Shown in {{language}}: no translation yet',
    emptyTitle: 'No articles yet',
    emptyText: 'News and guides appear here as soon as they are published.',
    firstPage: 'Back to the first page',
    notFoundTitle: 'Article not found',
    notFoundText: 'It may have been removed or not published yet.',
    backToList: 'All articles',
  },
};

type Messages = typeof enUS;

const zhCN: Messages = {
  article: {
    fallbackNote: '暂无译文，显示{{language}}版本',
    emptyTitle: '暂无文章',
    emptyText: '新闻和使用指南发布后会显示在这里。',
    firstPage: '回到第一页',
    notFoundTitle: '文章不存在',
    notFoundText: '文章可能已被删除或尚未发布。',
    backToList: '全部文章',
  },
};

const zhTW: Messages = {
  article: {
    fallbackNote: '尚無譯文，顯示{{language}}版本',
    emptyTitle: '目前沒有文章',
    emptyText: '新聞與使用指南發布後會顯示在這裡。',
    firstPage: '回到第一頁',
    notFoundTitle: '找不到文章',
    notFoundText: '文章可能已被刪除或尚未發布。',
    backToList: '所有文章',
  },
};

export const messages = { 'zh-CN': zhCN, 'en-US': enUS, 'zh-TW': zhTW } satisfies LocaleMessages;
