/** Application-level calls of the shell: the product name and the active profiles. */
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../api/client';

export interface ManagementInfo {
  activeProfiles: string[];
  displayRibbonOnProfiles?: string;
  appName?: string;
  /** The API's upload limits (UPLOAD_MAX_BYTES, OFFICE_MAX_UNCOMPRESSED_BYTES), for the upload page's check. */
  upload?: { maxBytes: number; officeMaxUncompressedBytes: number };
  /** The identity provider's end-session URL (with this client's id) when the API has one configured. */
  logoutUrl?: string;
  /** Single sign-on through an OpenID Connect provider: the sign-in page offers "Sign in with <providerName>". */
  sso?: { providerName: string };
  /** The Temporal UI (TEMPORAL_UI_URL), given to administrators only; null when not configured. */
  temporalUi?: { url: string; namespace: string } | null;
}

/** The Temporal UI page of a workflow (or the namespace's workflow list without an id). */
export function temporalUiLink(info: ManagementInfo | undefined, workflowId?: string): string | null {
  const ui = info?.temporalUi;
  if (!ui) return null;
  const base = `${ui.url}/namespaces/${encodeURIComponent(ui.namespace)}/workflows`;
  return workflowId ? `${base}/${encodeURIComponent(workflowId)}` : base;
}

export const managementKeys = {
  all: ['management'] as const,
  appName: () => [...managementKeys.all, 'app-name'] as const,
  /** Per signed-in user: administrators get more of it (the Temporal UI). */
  info: (login = '') => [...managementKeys.all, 'info', login] as const,
};

export const managementQueries = {
  appName: () =>
    queryOptions({
      queryKey: managementKeys.appName(),
      queryFn: ({ signal }) => http.get<{ appName: string }>('management/app-name', { signal, silent: true }),
      staleTime: Infinity,
      retry: false,
    }),
  info: (login?: string) =>
    queryOptions({
      queryKey: managementKeys.info(login),
      queryFn: ({ signal }) => http.get<ManagementInfo>('management/info', { signal, silent: true }),
      staleTime: Infinity,
      retry: false,
    }),
};

/** Profile flags of the shell (spec: "ribbon and environment flags come from active profiles"). */
export function profileFlags(info: ManagementInfo | undefined) {
  const profiles = info?.activeProfiles ?? [];
  const ribbonProfiles = (info?.displayRibbonOnProfiles ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return {
    isProd: profiles.includes('prod'),
    apiDocs: profiles.includes('api-docs'),
    rag: profiles.includes('rag'),
    ribbonEnv: profiles.find((p) => ribbonProfiles.includes(p)) ?? null,
  };
}
