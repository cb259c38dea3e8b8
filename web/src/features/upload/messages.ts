/**
 * Texts of refused and failed uploads: the API's reason (domain/upload-check.ts `reason`, in the 413/415
 * body or from the check before sending) translated with its parameters, file kinds named in the current
 * language; any other failure through the global error catalogue (api/errors.ts).
 */
import type { TFunction } from 'i18next';
import type { UploadRefusalReason } from '@domain/upload-check';
import { HttpError } from '../../api/client';
import { errorMessages } from '../../api/errors';

export function reasonText(t: TFunction, reason: UploadRefusalReason): string {
  const p = reason.params;
  const params: Record<string, string> = { ...p };
  if (p.expected) params.expected = t(`error.upload.kind.${p.expected}`, { defaultValue: p.expected });
  if (p.found) params.found = t(`error.upload.found.${p.found}`, { defaultValue: p.found });
  return t(reason.key, { ...params, defaultValue: reason.key });
}

const isReason = (v: unknown): v is UploadRefusalReason =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as UploadRefusalReason).key === 'string' &&
  !!(v as UploadRefusalReason).params &&
  typeof (v as UploadRefusalReason).params === 'object';

/** The text of a failed upload. */
export function failureText(t: TFunction, error: unknown): string {
  if (error instanceof HttpError && error.body && typeof error.body === 'object') {
    const reason = (error.body as { reason?: unknown }).reason;
    if (isReason(reason)) return reasonText(t, reason);
  }
  return errorMessages(t, error)[0] ?? t('error.unknown');
}

/** A size for people: bytes, KiB or MiB. */
export function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KiB`;
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}
