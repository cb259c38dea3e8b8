/**
 * The calls of the work accordion's action sections (spec 2 section 2, spec 3 section 7): the latest result
 * of a send-to-cloud-drive or send-to-SFTP step (`GET api/action-execution-results/send-to-google-drive` and
 * `.../send-to-sftp` with `stepId`). A step that has not run answers 404: no result yet (silent, no toast).
 */
import { queryOptions } from '@tanstack/react-query';
import { http, isHttpError } from '../../api/client';
import { workspaceKeys } from './api';

export interface DriveResult {
  status: 'SUCCESS' | 'FAILURE';
  createdFileId: string | null;
  fileUrl: string | null;
}

export interface SftpResult {
  status: 'SUCCESS' | 'FAILURE';
  createdFileAddress: string | null;
}

export type ActionResultKind = 'send-to-google-drive' | 'send-to-sftp';

export const workKeys = {
  result: (kind: ActionResultKind, stepId: number) =>
    [...workspaceKeys.all, 'action-result', kind, stepId] as const,
};

/** null when the step has no result yet. */
async function latestResult<T>(
  kind: ActionResultKind,
  stepId: number,
  signal: AbortSignal,
): Promise<T | null> {
  try {
    return await http.get<T>(`api/action-execution-results/${kind}`, {
      query: { stepId },
      signal,
      silent: true,
    });
  } catch (e) {
    if (isHttpError(e) && e.status === 404) return null;
    throw e;
  }
}

export const workQueries = {
  drive: (stepId: number) =>
    queryOptions({
      queryKey: workKeys.result('send-to-google-drive', stepId),
      queryFn: ({ signal }) => latestResult<DriveResult>('send-to-google-drive', stepId, signal),
    }),
  sftp: (stepId: number) =>
    queryOptions({
      queryKey: workKeys.result('send-to-sftp', stepId),
      queryFn: ({ signal }) => latestResult<SftpResult>('send-to-sftp', stepId, signal),
    }),
};

/** An address a browser can open (http, https or sftp), else null: the address is shown as text. */
export function openableAddress(address: string | null): string | null {
  if (!address) return null;
  try {
    const url = new URL(address);
    return ['http:', 'https:', 'sftp:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}
