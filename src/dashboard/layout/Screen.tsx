import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Box, IconButton, Stack, Typography } from '@mui/material';
import { useEffect, type ReactNode } from 'react';
import { Title, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';

export const useDocumentTitle = (title: string) => {
  const translate = useTranslate();
  const appName = translate('app.name');
  useEffect(() => {
    document.title = `${title} · ${appName}`;
  }, [title, appName]);
};

const BackButton = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <IconButton
      edge="start"
      aria-label={translate('app.back')}
      onClick={() => {
        // react-router keeps the history index in history.state: go back when there is somewhere to go.
        const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
        if (index > 0) navigate(-1);
        else navigate('/');
      }}
    >
      <ArrowBackIcon />
    </IconButton>
  );
};

/**
 * The frame of every page: its title (title key of spec section 2) in the app
 * bar, the document title and the page heading, and a back action on pages
 * that are not one of the four tabs.
 */
export const Screen = ({
  titleKey,
  titleOptions,
  back = true,
  children,
}: {
  titleKey: string;
  titleOptions?: Record<string, unknown>;
  back?: boolean;
  children?: ReactNode;
}) => {
  const translate = useTranslate();
  const title = translate(titleKey, titleOptions);
  useDocumentTitle(title);
  return (
    <Box component="section" data-title-key={titleKey} sx={{ py: { xs: 1.5, md: 3 }, px: { xs: 0.5, md: 1 }, maxWidth: 1080, minWidth: 0, width: '100%', boxSizing: 'border-box' }}>
      <Title title={title} />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
        {back && <BackButton />}
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
      </Stack>
      {children}
    </Box>
  );
};
