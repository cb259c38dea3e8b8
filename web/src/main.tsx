/**
 * Entry point: the HTTP client hooks (toasts, session clearing), then, side by side, the translations, the
 * session (GET api/account) and the router (which fetches the chunk of a lazy route it lands on); React once
 * the translations are there. Toasts of calls that end before the translations wait for them.
 */
import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureClient } from './api/client';
import { alertMessage, errorMessages } from './api/errors';
import { toast } from './components/toast';
import { accountKeys, accountQueries } from './features/account/api';
import i18n, { initI18n } from './i18n';
import { App, createQueryClient, createRouter } from './App';

async function start() {
  const translations = initI18n();
  let translated = false;
  /** Runs `show` now, or once the translations are loaded. */
  const whenTranslated = (show: () => void) => {
    if (translated) show();
    else void translations.then(show, show);
  };
  const queryClient = createQueryClient();

  configureClient({
    onError: (error, ctx) => {
      if (ctx.silent) return;
      whenTranslated(() => {
        for (const text of errorMessages(i18n.t.bind(i18n), error)) toast.error(text);
      });
    },
    onSuccess: (response) => {
      whenTranslated(() => {
        const text = alertMessage(i18n.t.bind(i18n), response.headers);
        if (text) toast.success(text);
      });
    },
    // A 401 on any request clears authentication (a 403 refuses one thing to a signed-in user).
    onAuthCleared: () => {
      if (queryClient.getQueryData(accountKeys.current()))
        queryClient.setQueryData(accountKeys.current(), null);
    },
  });

  void queryClient.prefetchQuery(accountQueries.current());
  const router = createRouter();
  await translations;
  translated = true;
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App queryClient={queryClient} router={router} />
    </StrictMode>,
  );
}

void start();
