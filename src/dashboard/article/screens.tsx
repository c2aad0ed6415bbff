import { placeholderScreen } from '../layout/Screen';

export const ArticleListPage = placeholderScreen('page.article');
export const ArticleDetailPage = placeholderScreen('page.articleDetail');
