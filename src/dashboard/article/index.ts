import ArticleIcon from '@mui/icons-material/Article';
import { createElement } from 'react';
import type { Domain } from '../domain';
import { ArticleDetailPage, ArticleListPage } from './ArticlePages';
import { messages } from './messages';

/** Articles: news and guides, in the reader's language. */
export const article = {
  routes: [
    { path: '/article', titleKey: 'page.article', Component: ArticleListPage },
    { path: '/article/:id', titleKey: 'page.articleDetail', Component: ArticleDetailPage },
  ],
  menu: [{ to: '/article', labelKey: 'page.article', icon: createElement(ArticleIcon), place: 'more', order: 80 }],
  messages,
} satisfies Domain;
