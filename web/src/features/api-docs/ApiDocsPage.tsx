/**
 * API documentation (issue 15 section 3; spec 1 section 2: the admin menu's docs entry, only with the
 * api-docs profile): Swagger UI over `GET /v3/api-docs`, calling the API with the signed-in user's token.
 * Swagger UI and its styles load as this route's own chunk.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import 'swagger-ui-dist/swagger-ui.css';
import { getAuthToken, http } from '../../api/client';
import { DelayedSpinner } from '../../components/DelayedSpinner';

interface SwaggerRequest {
  headers: Record<string, string>;
}

export function ApiDocsPage() {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const spec = useQuery({
    queryKey: ['api-docs'],
    queryFn: ({ signal }) => http.get<Record<string, unknown>>('v3/api-docs', { signal }),
    staleTime: Infinity,
  });

  useEffect(() => {
    if (!spec.data || !host.current) return;
    let cancelled = false;
    import('swagger-ui-dist/swagger-ui-es-bundle.js')
      .then(({ default: SwaggerUIBundle }) => {
        if (cancelled || !host.current) return;
        SwaggerUIBundle({
          spec: spec.data,
          domNode: host.current,
          deepLinking: false,
          docExpansion: 'none',
          defaultModelsExpandDepth: -1,
          // "Try it out" calls go out as the signed-in user.
          requestInterceptor: (req: SwaggerRequest) => {
            const token = getAuthToken();
            if (token) req.headers.Authorization = `Bearer ${token}`;
            return req;
          },
        });
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [spec.data]);

  return (
    <div className="container-fluid py-3 bg-white" data-testid="api-docs-page">
      <h1 className="h3 px-3">{t('shell.menu.admin.docs')}</h1>
      {spec.isError || failed ? (
        <div className="alert alert-danger mx-3" role="alert">
          {t('apiDocs.loadError')}
        </div>
      ) : !spec.data ? (
        <DelayedSpinner label={t('global.common.loading')} testId="api-docs-loading" />
      ) : null}
      <div ref={host} data-testid="api-docs-swagger" />
    </div>
  );
}
