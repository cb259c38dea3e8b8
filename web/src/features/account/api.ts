/** Account and session calls (spec 1 section 7, "Account and session"): keys, query options, mutations. */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountDTO, FieldErrorDTO, Violation } from '@domain';
import { HttpError, http, isHttpError, replaceAuthToken, request } from '../../api/client';

export const accountKeys = {
  all: ['account'] as const,
  current: () => [...accountKeys.all, 'current'] as const,
  verify: (key: string) => [...accountKeys.all, 'verify', key] as const,
};

export const accountQueries = {
  /** The signed-in account, or null when nobody is signed in (401 is silent here). */
  current: () =>
    queryOptions({
      queryKey: accountKeys.current(),
      queryFn: async ({ signal }): Promise<AccountDTO | null> => {
        try {
          return await http.get<AccountDTO>('api/account', { signal });
        } catch (e) {
          if (signal.aborted) throw e;
          // A failed session fetch marks the user unauthenticated.
          return null;
        }
      },
      retry: false,
      staleTime: Infinity,
    }),
  /** Account activation (GET api/verify?key); a query so that it runs once per key. */
  verify: (key: string) =>
    queryOptions({
      queryKey: accountKeys.verify(key),
      // The page says itself when the key is refused: no toast besides.
      queryFn: () => http.get<unknown>('api/verify', { query: { key }, silent: true }).then(() => true),
      retry: false,
      staleTime: Infinity,
      gcTime: Infinity,
    }),
};

export interface AuthenticateRequest {
  username: string;
  password: string;
  rememberMe: boolean;
}

export interface AccountUpdate {
  firstName: string;
  lastName: string;
  email: string;
  langKey: string;
  /** Only with a new e-mail (domain currentPasswordForEmailRule). */
  currentPassword?: string;
}

export interface RegisterRequest {
  login: string;
  email: string;
  password: string;
  langKey: string;
}

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: AccountUpdate) => http.post<unknown>('api/account', update),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.current() }),
  });
}

/** The change ends every other session; the API answers with a new token for this one. */
export function useChangePassword() {
  return useMutation({
    mutationFn: async (body: { currentPassword: string; newPassword: string }) => {
      const res = await request<unknown>('api/account/change-password', {
        method: 'POST',
        body,
        silent: true,
      });
      const header = res.headers.get('authorization');
      if (header && header.startsWith('Bearer ')) replaceAuthToken(header.slice('Bearer '.length));
    },
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterRequest) => http.post<unknown>('api/register', body, { silent: true }),
  });
}

export function useResetPasswordInit() {
  return useMutation({
    mutationFn: (email: string) =>
      http.post<unknown>('api/account/reset-password/init', undefined, { text: email, silent: true }),
  });
}

export function useResetPasswordFinish() {
  return useMutation({
    mutationFn: (body: { key: string; newPassword: string }) =>
      http.post<unknown>('api/account/reset-password/finish', body, { silent: true }),
  });
}

/** The API's violation of one field in a refused request (400 with fieldErrors), else null. */
export function serverViolation(error: unknown, field: string): Violation | null {
  if (!(error instanceof HttpError) || error.status !== 400) return null;
  const found = (error.body as { fieldErrors?: FieldErrorDTO[] } | null)?.fieldErrors?.find(
    (fe) => fe.field === field,
  );
  return found ? { code: 'Pattern', key: found.key ?? `error.${found.message}` } : null;
}

/** True when the error is an HTTP error with this status. */
export const hasStatus = (e: unknown, status: number) => isHttpError(e) && e.status === status;
