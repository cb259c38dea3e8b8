/**
 * The session: the signed-in account (GET api/account through react-query), sign-in and sign-out.
 * A user counts as authenticated only if the account is activated. When no locale was chosen in this
 * browser session, the account's langKey becomes the UI language.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountDTO, Principal } from '@domain';
import { clearAuthToken, getAuthToken, request, storeAuthToken } from '../../api/client';
import { currentLocale, isLocale, sessionLocale, setLocale } from '../../i18n';
import { accountKeys, accountQueries, type AuthenticateRequest } from './api';
import { managementKeys, type ManagementInfo } from '../shell/api';
import { identityProviderLogoutUrl } from './logout';

export interface Session {
  account: AccountDTO | null;
  principal: Principal | null;
  /** The session has not been fetched yet. */
  isLoading: boolean;
  isAuthenticated: boolean;
  login: (credentials: AuthenticateRequest) => Promise<AccountDTO | null>;
  /**
   * Finishes a single sign-on: the provider's answer (the callback page's query string) goes to the API,
   * which answers with this product's token; returns where the person was going before the sign-in.
   */
  loginWithProvider: (callbackQuery: string) => Promise<string | null>;
  /** Signs out; returns the identity-provider URL the browser is being sent to, if any. */
  logout: () => string | null;
  /** Refetches the account. */
  refresh: () => Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/**
 * The provider's ID token of a single sign-on, kept for this tab's logout (its id_token_hint) across a reload,
 * where the product's own token is kept too (sessionStorage: a single sign-on is never "remember me").
 */
const IDP_ID_TOKEN_KEY = 'wb-idp-id-token';

interface AuthenticateResponse {
  /** the workbench's own token (JHipster's name), not an identity provider's */
  id_token?: string;
  logoutUrl?: string;
  /** an identity provider's id token, when a sign-in through the provider brought one */
  idpIdToken?: string;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const query = useQuery(accountQueries.current());
  const account = query.data ?? null;
  // Identity-provider data of the current sign-in; the end-session URL otherwise comes from management/info.
  const idp = useRef<{ logoutUrl: string | null; idToken: string | null }>({
    logoutUrl: null,
    idToken: null,
  });

  const langKey = account?.langKey;
  useEffect(() => {
    if (langKey && isLocale(langKey) && !sessionLocale() && currentLocale() !== langKey) {
      void setLocale(langKey, false);
    }
  }, [langKey]);

  const refresh = useCallback(async () => {
    await queryClient.refetchQueries({ queryKey: accountKeys.current(), exact: true });
  }, [queryClient]);

  const login = useCallback(
    async ({ username, password, rememberMe }: AuthenticateRequest) => {
      const res = await request<AuthenticateResponse | null>('api/authenticate', {
        method: 'POST',
        body: { username, password, rememberMe },
        // The sign-in page shows why it failed.
        silent: true,
      });
      const header = res.headers.get('authorization');
      if (header && header.startsWith('Bearer ')) storeAuthToken(header.slice('Bearer '.length), rememberMe);
      idp.current = { logoutUrl: res.data?.logoutUrl ?? null, idToken: res.data?.idpIdToken ?? null };
      sessionStorage.removeItem(IDP_ID_TOKEN_KEY);
      return queryClient.fetchQuery({ ...accountQueries.current(), staleTime: 0 });
    },
    [queryClient],
  );

  const loginWithProvider = useCallback(
    async (callbackQuery: string) => {
      const res = await request<(AuthenticateResponse & { returnTo?: string | null }) | null>(
        'api/oidc/callback',
        {
          method: 'POST',
          body: { query: callbackQuery },
          silent: true,
        },
      );
      const header = res.headers.get('authorization');
      if (header && header.startsWith('Bearer ')) storeAuthToken(header.slice('Bearer '.length), false);
      // The provider's ID token: the logout's id_token_hint (the end-session URL comes from management/info).
      idp.current = { logoutUrl: null, idToken: res.data?.idpIdToken ?? null };
      if (idp.current.idToken) sessionStorage.setItem(IDP_ID_TOKEN_KEY, idp.current.idToken);
      await queryClient.fetchQuery({ ...accountQueries.current(), staleTime: 0 });
      return res.data?.returnTo ?? null;
    },
    [queryClient],
  );

  const logout = useCallback(() => {
    const idToken = idp.current.idToken ?? sessionStorage.getItem(IDP_ID_TOKEN_KEY);
    sessionStorage.removeItem(IDP_ID_TOKEN_KEY);
    const logoutUrl =
      idp.current.logoutUrl ??
      queryClient.getQueryData<ManagementInfo>(managementKeys.info())?.logoutUrl ??
      null;
    idp.current = { logoutUrl: null, idToken: null };
    // Server-side sign-out first (the request takes the token now), so that a copied token stops working
    // too; a failure (offline, already signed out) does not keep anybody signed in here.
    if (getAuthToken()) {
      void request('api/logout', { method: 'POST', silent: true, timeoutMs: 10000 }).catch(() => undefined);
    }
    clearAuthToken();
    // Back to the initial state: no account, no cached data of the previous user.
    queryClient.removeQueries({
      predicate: (q) => q.queryKey[0] !== 'account' && q.queryKey[0] !== 'management',
    });
    queryClient.setQueryData(accountKeys.current(), null);
    if (logoutUrl) {
      const target = identityProviderLogoutUrl(logoutUrl, idToken, window.location.origin);
      window.location.href = target;
      return target;
    }
    return null;
  }, [queryClient]);

  const value = useMemo<Session>(
    () => ({
      account,
      principal: account ? { roles: account.roles ?? [], authorities: account.authorities ?? [] } : null,
      isLoading: query.isPending,
      isAuthenticated: !!account?.activated,
      login,
      loginWithProvider,
      logout,
      refresh,
    }),
    [account, query.isPending, login, loginWithProvider, logout, refresh],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
