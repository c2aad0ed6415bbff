import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './dashboard/App';
import { createI18nProvider } from './i18n/i18nProvider';

void createI18nProvider().then((i18nProvider) => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App i18nProvider={i18nProvider} />
    </StrictMode>,
  );
});
