/** Entry point: translations first, then the HTTP client hooks (toasts, session clearing), then React. */
import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureClient } from './api/client';
import { alertMessage, errorMessages } from './api/errors';
import { toast } from './components/toast';
import { accountKeys } from './features/account/api';
import i18n, { initI18n } from './i18n';
import { App, createQueryClient, createRouter } from './App';

async function start() {
  await initI18n();
  const queryClient = createQueryClient();

  configureClient({
    onError: (error, ctx) => {
      if (ctx.silent) return;
      for (const text of errorMessages(i18n.t.bind(i18n), error)) toast.error(text);
    },
    onSuccess: (response) => {
      const text = alertMessage(i18n.t.bind(i18n), response.headers);
      if (text) toast.success(text);
    },
    // A 401 or 403 on any request clears authentication.
    onAuthCleared: () => {
      if (queryClient.getQueryData(accountKeys.current()))
        queryClient.setQueryData(accountKeys.current(), null);
    },
  });

  const router = createRouter();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App queryClient={queryClient} router={router} />
    </StrictMode>,
  );
}

void start();
