/** The route tree (spec 1 section 2) and the app-wide providers. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { isHttpError } from './api/client';
import { ErrorBoundary, RouteErrorElement } from './components/ErrorBoundary';
import { ToastContainer } from './components/ToastContainer';
import { routerBasename } from './config';
import { accountRoutes, landingRoutes } from './features/account/routes';
import { SessionProvider } from './features/account/session';
import { processRoutes } from './features/processes/routes';
import { RootLayout } from './features/shell/components/RootLayout';
import { notFoundRoute, shellRoutes } from './features/shell/routes';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Client errors will not get better by asking again; server hiccups get one more try.
        retry: (count, error) =>
          count < 1 && !(isHttpError(error) && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}

export function createRouter() {
  return createBrowserRouter(
    [
      {
        path: '/',
        element: <RootLayout />,
        errorElement: <RouteErrorElement />,
        children: [...shellRoutes, ...landingRoutes, ...accountRoutes, ...processRoutes, notFoundRoute],
      },
    ],
    { basename: routerBasename() },
  );
}

export function App({
  queryClient,
  router,
}: {
  queryClient: QueryClient;
  router: ReturnType<typeof createRouter>;
}) {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <RouterProvider router={router} />
        </SessionProvider>
        <ToastContainer />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
