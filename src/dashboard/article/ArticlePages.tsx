import ArticleOutlinedIcon from '@mui/icons-material/ArticleOutlined';
import TranslateIcon from '@mui/icons-material/Translate';
import {
  Box,
  Button,
  CardActionArea,
  Paper,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { keepPreviousData } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { ListBase, useGetOne, useListContext, useLocaleState, useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import type { Article, ArticleSummary } from '../../api/article';
import { ErrorCode } from '../../api/errors';
import type { LocaleCode } from '../../api/types';
import { isApiError } from '../../dataProvider/ApiError';
import { currentLocale } from '../../i18n/i18nProvider';
import { localeInfo } from '../../i18n/locales';
import { LoadError } from '../kit/LoadError';
import { PagePagination } from '../kit/PagePagination';
import { EmptyPanel } from '../kit/panels';
import { Screen } from '../layout/Screen';

export const ARTICLE_PAGE_SIZE = 10;

const formatDate = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

/** "Shown in Simplified Chinese": the text is the zh-CN fallback of a language the article lacks. */
const FallbackNote = ({ article, locale }: { article: Pick<ArticleSummary, 'locale'>; locale: string }) => {
  const translate = useTranslate();
  if (article.locale === locale) return null;
  return (
    <Typography variant="caption" color="text.secondary" data-fallback={article.locale} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      <TranslateIcon sx={{ fontSize: 14 }} />
      {translate('article.fallbackNote', { language: localeInfo(article.locale as LocaleCode).nativeLabel })}
    </Typography>
  );
};

const ArticleCard = ({ article, locale }: { article: ArticleSummary; locale: string }) => (
  <Paper component="article" data-article={article.id} lang={article.locale} sx={{ overflow: 'hidden' }}>
    <CardActionArea component={Link} to={`/article/${encodeURIComponent(article.id)}`} sx={{ p: { xs: 2, md: 2.5 } }}>
      <Typography variant="h6" component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {article.title}
      </Typography>
      {article.summary && (
        // Three lines at most: the whole summary stays at hand as its title.
        <Typography
          color="text.secondary"
          title={article.summary}
          sx={{ mt: 0.75, overflowWrap: 'anywhere', display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
        >
          {article.summary}
        </Typography>
      )}
      <Stack direction="row" spacing={1.5} sx={{ mt: 1.25, alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
        <Typography variant="caption" color="text.secondary" component="time" dateTime={article.publishedAt}>
          {formatDate(article.publishedAt, locale)}
        </Typography>
        <FallbackNote article={article} locale={locale} />
      </Stack>
    </CardActionArea>
  </Paper>
);

/** The cards of the current page: loading, error, empty or the articles. */
const ArticleCards = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data, error, isPending, isPlaceholderData, page, refetch } = useListContext<ArticleSummary>();
  if (isPending) {
    return (
      <Stack spacing={2} aria-busy="true" aria-label={translate('ra.page.loading')}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={108} />
        ))}
      </Stack>
    );
  }
  if (error) return <LoadError error={error} onRetry={() => void refetch()} />;
  if (!data || data.length === 0) {
    return (
      <EmptyPanel icon={<ArticleOutlinedIcon color="disabled" sx={{ fontSize: 48 }} />} titleKey="article.emptyTitle" textKey="article.emptyText" section="article-empty">
        {page > 1 && (
          <Button sx={{ mt: 2 }} component={Link} to="/article">
            {translate('article.firstPage')}
          </Button>
        )}
      </EmptyPanel>
    );
  }
  return (
    <Stack spacing={2} sx={{ opacity: isPlaceholderData ? 0.6 : 1 }}>
      {data.map((article) => (
        <ArticleCard key={article.id} article={article} locale={locale} />
      ))}
    </Stack>
  );
};

/** `/article`: published articles in the page's language (zh-CN where a language is missing), newest first. */
export const ArticleListPage = () => {
  const locale = currentLocale();
  return (
    <Screen titleKey="page.article">
      {/* The language the calls go out in is part of the query: switching it asks again (the server answers by Accept-Language). */}
      <ListBase resource="article" perPage={ARTICLE_PAGE_SIZE} sort={{ field: 'publishedAt', order: 'DESC' }} queryOptions={{ meta: { locale }, placeholderData: keepPreviousData }}>
        <ArticleCards />
        <PagePagination />
      </ListBase>
    </Screen>
  );
};

/** The article does not exist (or is not published): 10006, or a 404 without an envelope. */
const isNotFound = (error: unknown) =>
  isApiError(error) && (error.code === ErrorCode.PARAM_NOT_EXIST || error.code === ErrorCode.PARAM_FORMAT || (error.code === undefined && error.status === 404));

/** Styles for the body's HTML: readable, and nothing in it can break out of its column. */
const bodyStyles = {
  overflowWrap: 'anywhere',
  lineHeight: 1.75,
  fontSize: { xs: 15, md: 16 },
  '& img, & video': { maxWidth: '100%', height: 'auto', borderRadius: 1 },
  '& table': { display: 'block', maxWidth: '100%', overflowX: 'auto', borderCollapse: 'collapse' },
  '& th, & td': { border: 1, borderColor: 'divider', px: 1, py: 0.5 },
  '& pre': { maxWidth: '100%', overflowX: 'auto', p: 1.5, bgcolor: 'action.hover', borderRadius: 1 },
  '& code': { fontFamily: 'monospace' },
  '& blockquote': { m: 0, pl: 2, borderLeft: 4, borderColor: 'divider', color: 'text.secondary' },
  '& a': { color: 'primary.main' },
  '& h1, & h2, & h3, & h4': { lineHeight: 1.35, mt: 3, mb: 1 },
  '& > :first-of-type': { mt: 0 },
} as const;

/** The body cleaned for the page; the HTML cleaner is loaded with the first article read, not with the dashboard. Null until then. */
const useArticleHtml = (body: string | undefined): string | null => {
  const [clean, setClean] = useState<((html: string) => string) | null>(null);
  useEffect(() => {
    let live = true;
    void import('./articleHtml').then(({ articleHtml }) => live && setClean(() => articleHtml));
    return () => {
      live = false;
    };
  }, []);
  return useMemo(() => (clean && body !== undefined ? clean(body) : null), [clean, body]);
};

/** `/article/:id`: one article, its body rendered from the server's sanitized HTML. */
export const ArticleDetailPage = () => {
  const translate = useTranslate();
  const locale = currentLocale();
  const { id = '' } = useParams();
  // Its own cache entry: react-admin fills the getOne cache with the list's summaries, which have no body.
  const article = useGetOne<Article>('article', { id, meta: { locale, view: 'detail' } });
  const html = useArticleHtml(article.data?.body);
  return (
    <Screen titleKey="page.articleDetail">
      {(article.isPending || (article.data && html === null)) && !article.error && (
        <Paper sx={{ p: { xs: 2, md: 3 } }} aria-busy="true" aria-label={translate('ra.page.loading')}>
          <Skeleton variant="text" height={40} width="70%" />
          <Skeleton variant="text" width="30%" />
          <Skeleton variant="rounded" height={200} sx={{ mt: 2 }} />
        </Paper>
      )}
      {article.error &&
        (isNotFound(article.error) ? (
          <EmptyPanel icon={<ArticleOutlinedIcon color="disabled" sx={{ fontSize: 48 }} />} titleKey="article.notFoundTitle" textKey="article.notFoundText" section="article-not-found">
            <Button sx={{ mt: 2 }} variant="contained" component={Link} to="/article">
              {translate('article.backToList')}
            </Button>
          </EmptyPanel>
        ) : (
          <LoadError error={article.error} onRetry={() => void article.refetch()} />
        ))}
      {article.data && html !== null && (
        <Paper component="article" lang={article.data.locale} data-article={article.data.id} sx={{ p: { xs: 2, md: 4 }, minWidth: 0 }}>
          <Typography variant="h5" component="h2" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
            {article.data.title}
          </Typography>
          <Stack direction="row" spacing={1.5} sx={{ mt: 1, mb: 3, alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
            <Typography variant="body2" color="text.secondary" component="time" dateTime={article.data.publishedAt}>
              {formatDate(article.data.publishedAt, locale)}
            </Typography>
            <FallbackNote article={article.data} locale={locale} />
          </Stack>
          <Box data-article-body sx={bodyStyles} dangerouslySetInnerHTML={{ __html: html }} />
        </Paper>
      )}
    </Screen>
  );
};
