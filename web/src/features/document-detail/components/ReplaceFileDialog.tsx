/**
 * Replace a document's file (issue 29 section 2; `POST api/documents/{id}/file`, a process administrator's):
 * the dialog says what the replacement does (the parser runs again on the new file and replaces what it
 * made; the document keeps its id, history and other steps) before the file is sent. Used by the document
 * detail page and by the workspace's failed parser step.
 */
import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { uploadForm } from '../../../api/client';
import { errorMessages } from '../../../api/errors';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { toast } from '../../../components/toast';
import { workspaceKeys } from '../../workspace/api';
import { documentDetailKeys } from '../api';

export function ReplaceFileDialog({
  documentId,
  filename,
  onClose,
}: {
  documentId: number;
  filename: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const send = async () => {
    if (!file) {
      setError(t('soaApp.document.replace.chooseFile'));
      return;
    }
    setPending(true);
    setError(null);
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      await uploadForm(`api/documents/${documentId}/file`, form, { silent: true, timeoutMs: 10 * 60_000 });
      toast.success(t('soaApp.document.replace.done', { name: file.name }));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: documentDetailKeys.document(documentId) }),
        queryClient.invalidateQueries({ queryKey: documentDetailKeys.timeline(documentId) }),
        queryClient.invalidateQueries({ queryKey: workspaceKeys.all }),
      ]);
      onClose();
    } catch (err) {
      setError(errorMessages(t, err).join(' '));
    } finally {
      setPending(false);
    }
  };

  return (
    <ConfirmModal
      title={t('soaApp.document.replace.title', { name: filename })}
      confirmLabel={t('soaApp.document.replace.confirm')}
      pending={pending}
      onConfirm={() => void send()}
      onClose={onClose}
    >
      <p>{t('soaApp.document.replace.explain')}</p>
      <label className="form-label" htmlFor={inputId}>
        {t('soaApp.document.replace.file')}
      </label>
      <input
        id={inputId}
        type="file"
        className="form-control"
        onChange={(e) => setFile(e.target.files?.[0] ?? null)}
      />
      {error && (
        <p className="text-danger small mt-2 mb-0" role="alert">
          {error}
        </p>
      )}
    </ConfirmModal>
  );
}
