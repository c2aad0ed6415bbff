import { Chip, FormControlLabel, Stack, Switch } from '@mui/material';
import { RichTextInput, RichTextInputToolbar } from 'ra-input-rich-text';
import {
  BooleanInput,
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  List,
  NullableBooleanInput,
  SearchInput,
  SaveButton,
  SimpleList,
  TabbedForm,
  TextInput,
  Toolbar,
  TopToolbar,
  ListButton,
  maxLength,
  useRecordContext,
  useTranslate,
  type Validator,
} from 'react-admin';
import type { AdminArticle, ArticleTranslation } from '../../api/admin';
import type { LocaleCode } from '../../api/types';
import { LOCALES } from '../../i18n/locales';
import { DateTimeText, stopRowClick, useDateTime, useDecision, ConsolePagination } from './common';
import { useIsPhone } from '../kit/responsive';

export const ARTICLES = 'admin/articles';

/** The language every article must have; the others fall back to it. */
export const REQUIRED_LOCALE: LocaleCode = 'zh-CN';

/** Form keys per language (a dash would read as nothing special, but keys stay plain identifiers). */
const formKey = (code: LocaleCode) => code.replace('-', '_');

type TextFields = Pick<ArticleTranslation, 'title' | 'summary' | 'body'>;
interface ArticleForm {
  id?: string;
  published?: boolean;
  tr: Record<string, TextFields>;
}

const empty = (text: string | undefined | null) => (text ?? '').replace(/<[^>]*>/g, '').trim() === '';

/** The record as the form edits it: one group of fields per language. */
export const toArticleForm = (record: Partial<AdminArticle> | undefined): ArticleForm => ({
  id: record?.id,
  published: record?.published ?? false,
  tr: Object.fromEntries(
    LOCALES.map(({ code }) => {
      const t = record?.translations?.find((x) => x.locale === code);
      return [formKey(code), { title: t?.title ?? '', summary: t?.summary ?? '', body: t?.body ?? '' }];
    }),
  ),
});

/** The translations the form holds: zh-CN always, another language only when it has any text. */
export const translationsOf = (form: ArticleForm): ArticleTranslation[] =>
  LOCALES.flatMap(({ code }) => {
    const t = form.tr?.[formKey(code)];
    const title = t?.title?.trim() ?? '';
    const summary = t?.summary?.trim() ?? '';
    const body = t?.body ?? '';
    if (code !== REQUIRED_LOCALE && !title && !summary && empty(body)) return [];
    return [{ locale: code, title, summary, body: empty(body) ? '' : body }];
  });

/** Required for zh-CN; for another language, required once any of its fields has text. */
const requiredFor =
  (code: LocaleCode): Validator =>
  (value: unknown, values: ArticleForm) => {
    const isEmpty = typeof value !== 'string' || empty(value);
    if (!isEmpty) return undefined;
    if (code === REQUIRED_LOCALE) return 'ra.validation.required';
    const t = values.tr?.[formKey(code)];
    const started = !!t && (!!t.title?.trim() || !!t.summary?.trim() || !empty(t.body));
    return started ? 'ra.validation.required' : undefined;
  };

/** One tab per language (TabbedForm reads its tabs from its direct children). */
const languageTabs = (translate: (key: string) => string) =>
  LOCALES.map(({ code, nativeLabel }) => {
    const key = formKey(code);
    const label = code === REQUIRED_LOCALE ? `${nativeLabel} *` : nativeLabel;
    return (
      <TabbedForm.Tab key={code} label={label} data-locale={code}>
        {code !== REQUIRED_LOCALE && (
          <Chip size="small" variant="outlined" label={translate('admin.articles.optionalLanguage')} sx={{ mb: 1 }} />
        )}
        <TextInput
          source={`tr.${key}.title`}
          label="admin.articles.fields.title"
          validate={[requiredFor(code), maxLength(200)]}
          fullWidth
        />
        <TextInput source={`tr.${key}.summary`} label="admin.articles.fields.summary" validate={maxLength(500)} multiline minRows={2} fullWidth />
        <RichTextInput
          source={`tr.${key}.body`}
          label="admin.articles.fields.body"
          validate={requiredFor(code)}
          toolbar={<RichTextInputToolbar size="small" />}
          fullWidth
        />
      </TabbedForm.Tab>
    );
  });

const ArticleTitle = ({ titleKey }: { titleKey: string }) => {
  const record = useRecordContext<AdminArticle>();
  const translate = useTranslate();
  const title = record?.translations?.find((t) => t.locale === REQUIRED_LOCALE)?.title ?? record?.translations?.[0]?.title ?? '';
  return <span>{translate(titleKey, { title })}</span>;
};

/** Published or not, switched at once with its own call (the list row and the edit page). */
const PublishSwitch = (_: { label?: string; sortable?: boolean }) => {
  const record = useRecordContext<AdminArticle>();
  const translate = useTranslate();
  const publish = useDecision<AdminArticle>(ARTICLES, 'admin.articles.publishSaved');
  if (!record) return null;
  const published = publish.isPending ? !!publish.data?.published : record.published;
  return (
    <FormControlLabel
      onClick={stopRowClick}
      control={
        <Switch
          checked={published}
          disabled={publish.isPending}
          onChange={(event) => publish.decide(record, { published: event.target.checked })}
        />
      }
      label={translate(published ? 'admin.articles.published' : 'admin.articles.draft')}
    />
  );
};

const LanguageChips = (_: { label?: string }) => {
  const record = useRecordContext<AdminArticle>();
  return (
    <Stack direction="row" spacing={0.5}>
      {LOCALES.filter(({ code }) => record?.translations?.some((t) => t.locale === code)).map(({ code }) => (
        <Chip key={code} size="small" label={code} variant="outlined" />
      ))}
    </Stack>
  );
};

const TitleText = (_: { label?: string }) => {
  const record = useRecordContext<AdminArticle>();
  const zh = record?.translations?.find((t) => t.locale === REQUIRED_LOCALE) ?? record?.translations?.[0];
  return <span>{zh?.title ?? '—'}</span>;
};

const titleOf = (article: AdminArticle) =>
  (article.translations.find((t) => t.locale === REQUIRED_LOCALE) ?? article.translations[0])?.title ?? '—';

const articleFilters = (translate: (key: string) => string) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate('admin.articles.search')} />,
  <NullableBooleanInput key="published" source="published" label="admin.articles.fields.published" />,
];

export const ArticleList = () => {
  const isPhone = useIsPhone();
  const translate = useTranslate();
  const dateTime = useDateTime();
  return (
    <List resource={ARTICLES} title={translate('admin.articles.title')} filters={articleFilters(translate)} sort={{ field: 'updatedAt', order: 'DESC' }} perPage={20} pagination={<ConsolePagination />} exporter={false}>
      {isPhone ? (
        <SimpleList<AdminArticle>
          primaryText={titleOf}
          secondaryText={(a) => translate(a.published ? 'admin.articles.published' : 'admin.articles.draft')}
          tertiaryText={(a) => dateTime(a.updatedAt)}
          linkType="edit"
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <TitleText label="admin.articles.fields.title" />
          <LanguageChips label="admin.articles.fields.languages" />
          <PublishSwitch label="admin.articles.fields.published" />
          <DateTimeText source="publishedAt" label="admin.articles.fields.publishedAt" />
          <DateTimeText source="updatedAt" label="admin.articles.fields.updatedAt" />
        </Datagrid>
      )}
    </List>
  );
};

const EditActions = () => (
  <TopToolbar sx={{ alignItems: 'center' }}>
    <PublishSwitch />
    <ListButton />
  </TopToolbar>
);

const EditToolbar = () => (
  <Toolbar sx={{ justifyContent: 'space-between' }}>
    <SaveButton />
    <DeleteButton mutationMode="pessimistic" />
  </Toolbar>
);

export const ArticleEdit = () => {
  const translate = useTranslate();
  return (
  <Edit
    resource={ARTICLES}
    title={<ArticleTitle titleKey="admin.articles.editTitle" />}
    actions={<EditActions />}
    mutationMode="pessimistic"
    transform={(data: ArticleForm) => ({ translations: translationsOf(data) })}
    queryOptions={{ select: (record: AdminArticle) => ({ ...record, ...toArticleForm(record) }) }}
  >
    <TabbedForm toolbar={<EditToolbar />}>{languageTabs(translate)}</TabbedForm>
  </Edit>
  );
};

export const ArticleCreate = () => {
  const translate = useTranslate();
  return (
    <Create
      resource={ARTICLES}
      title={translate('admin.articles.createTitle')}
      redirect="list"
      transform={(data: ArticleForm) => ({ translations: translationsOf(data), published: !!data.published })}
    >
      <TabbedForm defaultValues={toArticleForm(undefined)} toolbar={<Toolbar><SaveButton /></Toolbar>}>
        {languageTabs(translate)}
        <TabbedForm.Tab label="admin.articles.publishTab">
          <BooleanInput source="published" label="admin.articles.publishNow" />
        </TabbedForm.Tab>
      </TabbedForm>
    </Create>
  );
};
