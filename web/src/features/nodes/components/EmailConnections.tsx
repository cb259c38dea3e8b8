/**
 * The e-mail upload connections of a node: a table (host, folder, actions) and the modal 'Add Email Upload
 * Connection Data' (IMAP host and port 993 / 143, address, password, folder, content type, cron). When
 * editing, the stored password shows as the mask and null is sent when it is left unchanged.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  MASKED_SECRET,
  type EmailConnectionDTO,
  type EmailContentType,
  type ImapPort,
} from '@domain/integration-types';
import {
  DEFAULT_EMAIL_FOLDER,
  DEFAULT_IMAP_PORT,
  EMAIL_CONTENT_TYPES,
  IMAP_PORTS,
  emailConnectionViolations,
  isMasked,
  normalizeCron,
} from '@domain/integrations';
import { nodeConfigQueries, useDeleteEmailConnection, useSaveEmailConnection } from '../api';
import { ItemModal, ItemTable, ModalInput, useShownViolations, type ConnectionListProps } from './ItemTable';

export function EmailConnections({ nodeId, readOnly, showTitle = true }: ConnectionListProps) {
  const { t } = useTranslation();
  const connections = useQuery(nodeConfigQueries.emailConnections(nodeId));
  const remove = useDeleteEmailConnection(nodeId);

  return (
    <ItemTable<EmailConnectionDTO>
      testId="email-connections"
      itemTestId="email-connection"
      title={showTitle && t('soaApp.nodePanel.email.connections')}
      addLabel={t('soaApp.nodePanel.email.add')}
      empty={connections.isPending ? t('global.common.loading') : t('soaApp.nodePanel.email.none')}
      rows={connections.data ?? []}
      rowKey={(c) => c.id!}
      columns={[
        {
          header: t('soaApp.nodePanel.email.host'),
          cell: (c) => (
            <>
              <div>
                {c.imapHost}:{c.imapPort}
              </div>
              <div className="small text-body-secondary">{c.address}</div>
            </>
          ),
        },
        { header: t('soaApp.nodePanel.email.folder'), cell: (c) => c.folder },
      ]}
      readOnly={readOnly}
      editor={(connection, close) => (
        <EmailConnectionModal nodeId={nodeId} connection={connection} readOnly={readOnly} onClose={close} />
      )}
      confirmDelete={{
        question: (c) => t('soaApp.nodePanel.email.deleteQuestion', { name: c.address }),
        pending: remove.isPending,
        remove: (c, done) => remove.mutate(c.id!, { onSuccess: done }),
      }}
    />
  );
}

interface EmailForm {
  imapHost: string;
  imapPort: ImapPort;
  address: string;
  password: string;
  folder: string;
  contentType: EmailContentType;
  cron: string;
}

function EmailConnectionModal({
  nodeId,
  connection,
  readOnly,
  onClose,
}: {
  nodeId: number;
  connection: EmailConnectionDTO | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveEmailConnection(nodeId);
  const editing = !!connection;
  const [form, setForm] = useState<EmailForm>(() => ({
    imapHost: connection?.imapHost ?? '',
    imapPort: connection?.imapPort ?? DEFAULT_IMAP_PORT,
    address: connection?.address ?? '',
    // Editing keeps the ten-asterisk mask until the user types a new password.
    password: editing ? MASKED_SECRET : '',
    folder: connection?.folder ?? DEFAULT_EMAIL_FOLDER,
    contentType: connection?.contentType ?? 'MESSAGE',
    cron: connection?.cron ?? '',
  }));
  const { violation, touch, submit, submitted, invalid } = useShownViolations(
    emailConnectionViolations(form, { hasStoredPassword: editing }),
  );
  const set = <K extends keyof EmailForm>(key: K, value: EmailForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    touch(key);
  };

  const onSave = () => {
    if (!submit()) return;
    save.mutate(
      {
        id: connection?.id ?? null,
        nodeId,
        imapHost: form.imapHost.trim(),
        imapPort: form.imapPort,
        address: form.address.trim(),
        password: isMasked(form.password) ? null : form.password,
        folder: form.folder.trim() || DEFAULT_EMAIL_FOLDER,
        contentType: form.contentType,
        cron: normalizeCron(form.cron),
      },
      { onSuccess: onClose },
    );
  };

  const text = (key: 'imapHost' | 'address' | 'folder' | 'cron', label: string, extra: object = {}) => (
    <ModalInput
      id={`email-${key}`}
      label={label}
      violation={violation(key)}
      value={form[key]}
      autoComplete="off"
      onValue={(v) => set(key, v)}
      testId={`email-${key}`}
      {...extra}
    />
  );

  return (
    <ItemModal
      title={t(editing ? 'soaApp.nodePanel.email.editTitle' : 'soaApp.nodePanel.email.addTitle')}
      testId="email-connection-modal"
      saveTestId="email-connection-save"
      readOnly={readOnly}
      saveDisabled={save.isPending || (submitted && invalid)}
      onSave={onSave}
      onClose={onClose}
    >
      <div className="row g-2">
        <div className="col-8">{text('imapHost', t('soaApp.nodePanel.email.host'), { autoFocus: true })}</div>
        <div className="col-4 mb-3">
          <label htmlFor="email-imapPort" className="form-label">
            {t('soaApp.nodePanel.email.port')}
          </label>
          <select
            id="email-imapPort"
            className="form-select"
            value={form.imapPort}
            onChange={(e) => set('imapPort', Number(e.target.value) as ImapPort)}
            data-testid="email-imapPort"
          >
            {IMAP_PORTS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
      </div>
      {text('address', t('soaApp.nodePanel.email.address'), { type: 'email' })}
      <ModalInput
        id="email-password"
        label={t('soaApp.nodePanel.email.password')}
        violation={violation('password')}
        type="password"
        autoComplete="new-password"
        value={form.password}
        onFocus={(e) => e.target.select()}
        onValue={(v) => set('password', v)}
        testId="email-password"
      />
      <div className="row g-2">
        <div className="col-6">{text('folder', t('soaApp.nodePanel.email.folder'))}</div>
        <div className="col-6 mb-3">
          <label htmlFor="email-contentType" className="form-label">
            {t('soaApp.nodePanel.email.contentType')}
          </label>
          <select
            id="email-contentType"
            className="form-select"
            value={form.contentType}
            onChange={(e) => set('contentType', e.target.value as EmailContentType)}
            data-testid="email-contentType"
          >
            {EMAIL_CONTENT_TYPES.map((c) => (
              <option key={c} value={c}>
                {t(`soaApp.nodePanel.email.contentTypes.${c}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {text('cron', t('soaApp.nodePanel.email.cron'), { placeholder: '0 */15 * * * *' })}
    </ItemModal>
  );
}
