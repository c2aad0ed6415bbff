import ArticleIcon from '@mui/icons-material/Article';
import { createElement } from 'react';
import { lazyPage, type Domain } from '../domain';

const ArticleDetailPage = lazyPage(() => import('./ArticlePages'), 'ArticleDetailPage');
const ArticleListPage = lazyPage(() => import('./ArticlePages'), 'ArticleListPage');

/** Articles: news and guides, in the reader's language. */
export const article = {
  routes: [
    { path: '/article', titleKey: 'page.article', Component: ArticleListPage },
    { path: '/article/:id', titleKey: 'page.articleDetail', Component: ArticleDetailPage },
  ],
  menu: [{ to: '/article', labelKey: 'page.article', icon: createElement(ArticleIcon), place: 'more', order: 80 }],
} satisfies Domain;
