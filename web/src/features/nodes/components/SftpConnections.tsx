/**
 * The SFTP connections of a node (SFTP upload, send to SFTP): a table (name, address, folder, actions) and
 * a modal with the password-or-key credentials, the 'change' checkbox for stored secrets when editing, the
 * pinned host key, and a Test button (POST api/sftp-connection-data/test: pristine, loading, success,
 * error) that shows the host key the server presented with "Trust this key", which fills the field.
 * The host key is sent only when the user edited it: otherwise the server keeps its pin (perhaps one the
 * worker made meanwhile), or drops it when the address or the port changed (the field is cleared then too).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MASKED_SECRET, type SftpConnectionDTO } from '@domain/integration-types';
import {
  DEFAULT_SFTP_FOLDER,
  DEFAULT_SFTP_PORT,
  isMasked,
  sftpConnectionViolations,
} from '@domain/integrations';
import { Field, inputClass } from '../../../components/FormField';
import { errorDetailOf } from '../../../api/errors';
import { HttpError } from '../../../api/client';
import {
  nodeConfigQueries,
  useDeleteSftpConnection,
  useSaveSftpConnection,
  useTestSftpConnection,
} from '../api';
import { ItemModal, ItemTable, ModalInput, useShownViolations, type ConnectionListProps } from './ItemTable';

export function SftpConnections({ nodeId, readOnly, showTitle = true }: ConnectionListProps) {
  const { t } = useTranslation();
  const connections = useQuery(nodeConfigQueries.sftpConnections(nodeId));
  const remove = useDeleteSftpConnection(nodeId);

  return (
    <ItemTable<SftpConnectionDTO>
      testId="sftp-connections"
      itemTestId="sftp-connection"
      title={showTitle && t('soaApp.nodePanel.sftp.connections')}
      addLabel={t('soaApp.nodePanel.sftp.add')}
      empty={connections.isPending ? t('global.common.loading') : t('soaApp.nodePanel.sftp.none')}
      rows={connections.data ?? []}
      rowKey={(c) => c.id!}
      columns={[
        { header: t('soaApp.nodePanel.sftp.name'), cell: (c) => c.name },
        {
          header: t('soaApp.nodePanel.sftp.address'),
          cell: (c) => (
            <>
              {c.address}:{c.port}
            </>
          ),
        },
        { header: t('soaApp.nodePanel.sftp.folder'), cell: (c) => c.folder },
      ]}
      readOnly={readOnly}
      editor={(connection, close) => (
        <SftpConnectionModal nodeId={nodeId} connection={connection} readOnly={readOnly} onClose={close} />
      )}
      confirmDelete={{
        question: (c) => t('soaApp.nodePanel.sftp.deleteQuestion', { name: c.name }),
        pending: remove.isPending,
        remove: (c, done) => remove.mutate(c.id!, { onSuccess: done }),
      }}
    />
  );
}

type TestStatus = 'pristine' | 'loading' | 'success' | 'error';

interface SftpForm {
  name: string;
  address: string;
  port: number | null;
  folder: string;
  useKey: boolean;
  username: string;
  password: string;
  publicKey: string;
  privateKey: string;
  changeSecret: boolean;
  hostKey: string;
  /** The user edited the host key (or trusted the presented one): it is sent. */
  hostKeyEdited: boolean;
}

/** The fingerprint a test response (success or failure) reports. */
function presentedHostKey(result: unknown): string | null {
  const body = result instanceof HttpError ? result.body : (result as { data?: unknown })?.data;
  const hostKey = (body as { hostKey?: unknown } | null)?.hostKey;
  return typeof hostKey === 'string' ? hostKey : null;
}

function SftpConnectionModal({
  nodeId,
  connection,
  readOnly,
  onClose,
}: {
  nodeId: number;
  connection: SftpConnectionDTO | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveSftpConnection(nodeId);
  const test = useTestSftpConnection();
  const editing = !!connection;
  const storedPassword = editing && isMasked(connection.password.password);
  const storedKey = editing && isMasked(connection.password.privateKey);
  const [form, setForm] = useState<SftpForm>(() => ({
    name: connection?.name ?? '',
    address: connection?.address ?? '',
    port: connection?.port ?? DEFAULT_SFTP_PORT,
    folder: connection?.folder ?? DEFAULT_SFTP_FOLDER,
    useKey: connection?.password.useKey ?? false,
    username: connection?.password.username ?? '',
    password: '',
    publicKey: connection?.password.publicKey ?? '',
    privateKey: '',
    changeSecret: false,
    hostKey: connection?.hostKey ?? '',
    hostKeyEdited: false,
  }));
  const [status, setStatus] = useState<TestStatus>('pristine');
  const [detail, setDetail] = useState<string | null>(null);
  const [presented, setPresented] = useState<string | null>(null);

  // While editing, a stored secret is kept unless "change" is ticked (then a new value is required).
  const keepsStored = editing && !form.changeSecret;
  const secretStored = form.useKey ? storedKey : storedPassword;
  const dto: SftpConnectionDTO = {
    id: connection?.id ?? null,
    nodeId,
    name: form.name.trim(),
    address: form.address.trim(),
    port: form.port ?? Number.NaN,
    folder: form.folder.trim() || DEFAULT_SFTP_FOLDER,
    password: {
      id: connection?.password.id ?? null,
      useKey: form.useKey,
      username: form.useKey ? form.username || null : form.username,
      password: form.useKey ? null : keepsStored && secretStored ? null : form.password,
      publicKey: form.useKey ? form.publicKey : null,
      privateKey: form.useKey ? (keepsStored && secretStored ? null : form.privateKey) : null,
    },
    ...(form.hostKeyEdited || !editing ? { hostKey: form.hostKey.trim() || null } : {}),
  };
  const { violation, touch, submit, submitted, invalid } = useShownViolations(
    sftpConnectionViolations(dto, {
      password: keepsStored && storedPassword,
      privateKey: keepsStored && storedKey,
    }),
  );

  const set = <K extends keyof SftpForm>(key: K, value: SftpForm[K], field: string = key) => {
    setForm((f) => ({
      ...f,
      [key]: value,
      // another server: the pinned key is not its key (the server drops the pin too)
      ...((key === 'address' || key === 'port') && f.hostKey && !f.hostKeyEdited ? { hostKey: '' } : {}),
      ...(key === 'hostKey' ? { hostKeyEdited: true } : {}),
    }));
    touch(field);
    setStatus('pristine');
    setDetail(null);
    setPresented(null);
  };

  const onTest = () => {
    if (!submit()) return;
    setStatus('loading');
    setDetail(null);
    test.mutate(dto, {
      onSuccess: (res) => {
        setStatus(res.status === 200 ? 'success' : 'error');
        setPresented(presentedHostKey(res));
      },
      onError: (e) => {
        setStatus('error');
        setDetail(errorDetailOf(e));
        setPresented(presentedHostKey(e));
      },
    });
  };

  const onSave = () => {
    if (!submit()) return;
    save.mutate(dto, { onSuccess: onClose });
  };

  const secretField = form.useKey ? 'password.privateKey' : 'password.password';

  return (
    <ItemModal
      title={t(editing ? 'soaApp.nodePanel.sftp.editTitle' : 'soaApp.nodePanel.sftp.addTitle')}
      testId="sftp-connection-modal"
      saveTestId="sftp-connection-save"
      readOnly={readOnly}
      saveDisabled={save.isPending || (submitted && invalid)}
      onSave={onSave}
      onClose={onClose}
      footerStart={
        <>
          <span className="me-auto small" data-testid="sftp-test-status" data-status={status}>
            {status === 'loading' && <span className="spinner-border spinner-border-sm me-1" />}
            {status === 'success' && (
              <span className="text-success">{t('soaApp.nodePanel.sftp.testSuccess')}</span>
            )}
            {status === 'error' && (
              <span className="text-danger">
                {t('soaApp.nodePanel.sftp.testError')}
                {detail ? `: ${detail}` : ''}
              </span>
            )}
          </span>
          <button
            type="button"
            className="btn btn-outline-secondary"
            disabled={readOnly || invalid || status === 'loading'}
            onClick={onTest}
            data-testid="sftp-connection-test"
          >
            {t('soaApp.nodePanel.sftp.test')}
          </button>
        </>
      }
    >
      <ModalInput
        id="sftp-name"
        label={t('soaApp.nodePanel.sftp.name')}
        violation={violation('name')}
        value={form.name}
        onValue={(v) => set('name', v)}
        autoFocus
        testId="sftp-name"
      />
      <div className="row g-2">
        <ModalInput
          id="sftp-address"
          fieldClassName="col-8 mb-3"
          label={t('soaApp.nodePanel.sftp.address')}
          violation={violation('address')}
          value={form.address}
          placeholder="sftp.example.com"
          onValue={(v) => set('address', v)}
          testId="sftp-address"
        />
        <ModalInput
          id="sftp-port"
          fieldClassName="col-4 mb-3"
          label={t('soaApp.nodePanel.sftp.port')}
          violation={violation('port')}
          type="number"
          min={1}
          max={65535}
          value={form.port ?? ''}
          onValue={(v) => set('port', v === '' ? null : Number(v))}
          testId="sftp-port"
        />
      </div>
      <ModalInput
        id="sftp-folder"
        label={t('soaApp.nodePanel.sftp.folder')}
        violation={violation('folder')}
        value={form.folder}
        onValue={(v) => set('folder', v)}
        testId="sftp-folder"
      />
      <div className="form-check form-switch mb-3">
        <input
          id="sftp-use-key"
          type="checkbox"
          role="switch"
          className="form-check-input"
          checked={form.useKey}
          onChange={(e) => set('useKey', e.target.checked)}
          data-testid="sftp-use-key"
        />
        <label htmlFor="sftp-use-key" className="form-check-label">
          {t('soaApp.nodePanel.sftp.useKey')}
        </label>
      </div>
      <ModalInput
        id="sftp-username"
        label={t('soaApp.nodePanel.sftp.username')}
        violation={violation('password.username')}
        value={form.username}
        autoComplete="off"
        onValue={(v) => set('username', v, 'password.username')}
        testId="sftp-username"
      />
      {form.useKey && (
        <Field
          id="sftp-public-key"
          label={t('soaApp.nodePanel.sftp.publicKey')}
          violation={violation('password.publicKey')}
          show
        >
          <textarea
            id="sftp-public-key"
            rows={2}
            className={`${inputClass(violation('password.publicKey'), true)} template-editor`}
            value={form.publicKey}
            onChange={(e) => set('publicKey', e.target.value, 'password.publicKey')}
            data-testid="sftp-public-key"
          />
        </Field>
      )}
      {editing && secretStored && (
        <div className="form-check mb-2">
          <input
            id="sftp-change-secret"
            type="checkbox"
            className="form-check-input"
            checked={form.changeSecret}
            onChange={(e) => set('changeSecret', e.target.checked, secretField)}
            data-testid="sftp-change-secret"
          />
          <label htmlFor="sftp-change-secret" className="form-check-label">
            {t(form.useKey ? 'soaApp.nodePanel.sftp.changeKey' : 'soaApp.nodePanel.sftp.changePassword')}
          </label>
        </div>
      )}
      <Field
        id="sftp-secret"
        label={t(form.useKey ? 'soaApp.nodePanel.sftp.privateKey' : 'soaApp.nodePanel.sftp.password')}
        violation={violation(secretField)}
        show
      >
        {form.useKey ? (
          <textarea
            id="sftp-secret"
            rows={3}
            className={`${inputClass(violation(secretField), true)} template-editor`}
            value={keepsStored && secretStored ? MASKED_SECRET : form.privateKey}
            disabled={keepsStored && secretStored}
            onChange={(e) => set('privateKey', e.target.value, secretField)}
            data-testid="sftp-private-key"
          />
        ) : (
          <input
            id="sftp-secret"
            type="password"
            autoComplete="new-password"
            className={inputClass(violation(secretField), true)}
            value={keepsStored && secretStored ? MASKED_SECRET : form.password}
            disabled={keepsStored && secretStored}
            onChange={(e) => set('password', e.target.value, secretField)}
            data-testid="sftp-password"
          />
        )}
      </Field>
      <ModalInput
        id="sftp-host-key"
        label={t('soaApp.nodePanel.sftp.hostKey')}
        violation={violation('hostKey')}
        value={form.hostKey}
        placeholder="SHA256:…"
        autoComplete="off"
        spellCheck={false}
        help={t('soaApp.nodePanel.sftp.hostKeyHelp')}
        onValue={(v) => set('hostKey', v)}
        testId="sftp-host-key"
      />
      {presented && (
        <div className="d-flex align-items-center gap-2 small mb-2" data-testid="sftp-presented-key">
          <span className="text-break">
            {t('soaApp.nodePanel.sftp.presentedKey', { hostKey: presented })}
          </span>
          {!readOnly && presented !== form.hostKey.trim() && (
            <button
              type="button"
              className="btn btn-sm btn-outline-primary text-nowrap"
              onClick={() => setForm((f) => ({ ...f, hostKey: presented, hostKeyEdited: true }))}
              data-testid="sftp-trust-key"
            >
              {t('soaApp.nodePanel.sftp.trustKey')}
            </button>
          )}
        </div>
      )}
    </ItemModal>
  );
}
