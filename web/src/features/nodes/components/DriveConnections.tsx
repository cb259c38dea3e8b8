/**
 * The cloud-drive connection of a node (cloud-drive upload, send to cloud drive): at most one. The modal asks
 * for a name, the folder id and the authorization code the provider's sign-in page gives (required for a new
 * connection, optional to re-authorize); the sign-in link is built from GET api/google-drive-connections/config.
 * Changes go through PUT api/node/google-drive-connections.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DriveConfigDTO, DriveConnectionDTO } from '@domain/integration-types';
import { requiredRule } from '@domain';
import { MAX_DRIVE_CONNECTIONS_PER_NODE, driveConnectionViolations } from '@domain/integrations';
import { Field, inputClass } from '../../../components/FormField';
import { IconPencil, IconPlus, IconTrash } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { nodeConfigQueries, useSaveDriveConnections } from '../api';
import { ConfirmModal } from './ConfirmModal';

/** The provider's sign-in URL asking for an authorization code with the configured scope. */
export function driveSignInUrl(config: DriveConfigDTO): string {
  const url = new URL(config.authUrl);
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', config.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', config.scope);
  url.searchParams.set('access_type', 'offline');
  url.searchParams.set('prompt', 'consent');
  return url.toString();
}

export function DriveConnections({ nodeId, readOnly }: { nodeId: number; readOnly: boolean }) {
  const { t } = useTranslation();
  const connections = useQuery(nodeConfigQueries.driveConnections(nodeId));
  const save = useSaveDriveConnections(nodeId);
  const [editing, setEditing] = useState<DriveConnectionDTO | 'new' | null>(null);
  const [deleting, setDeleting] = useState<DriveConnectionDTO | null>(null);
  const rows = connections.data ?? [];
  const full = rows.length >= MAX_DRIVE_CONNECTIONS_PER_NODE;

  return (
    <div data-testid="drive-connections">
      <div className="d-flex align-items-center mb-2">
        <div className="node-subtitle m-0 me-auto">{t('soaApp.nodePanel.drive.connection')}</div>
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          disabled={readOnly || full}
          title={full ? t('soaApp.nodePanel.drive.onlyOne') : undefined}
          onClick={() => setEditing('new')}
          data-testid="drive-connection-add"
        >
          <IconPlus className="me-1" />
          {t('soaApp.nodePanel.drive.add')}
        </button>
      </div>
      {rows.length === 0 ? (
        <div className="small text-body-secondary mb-2">
          {connections.isPending ? t('global.common.loading') : t('soaApp.nodePanel.drive.none')}
        </div>
      ) : (
        <table className="table table-sm node-table mb-2">
          <thead>
            <tr>
              <th>{t('soaApp.nodePanel.drive.name')}</th>
              <th>{t('soaApp.nodePanel.drive.folderId')}</th>
              <th>{t('soaApp.nodePanel.drive.status')}</th>
              <th className="col-actions">
                <span className="visually-hidden">{t('soaApp.nodePanel.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.id} data-testid="drive-connection-row">
                <td>{c.name}</td>
                <td className="text-break">{c.folderId}</td>
                <td>
                  <span className={`badge ${c.authorized ? 'text-bg-success' : 'text-bg-warning'}`}>
                    {t(
                      c.authorized
                        ? 'soaApp.nodePanel.drive.authorized'
                        : 'soaApp.nodePanel.drive.notAuthorized',
                    )}
                  </span>
                </td>
                <td className="col-actions">
                  <button
                    type="button"
                    className="btn btn-sm btn-link p-1"
                    title={t('global.common.edit')}
                    onClick={() => setEditing(c)}
                    data-testid="drive-connection-edit"
                  >
                    <IconPencil />
                  </button>
                  <button
                    type="button"
                    className="btn btn-sm btn-link text-danger p-1"
                    title={t('global.common.delete')}
                    disabled={readOnly}
                    onClick={() => setDeleting(c)}
                    data-testid="drive-connection-delete"
                  >
                    <IconTrash />
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <DriveConnectionModal
          nodeId={nodeId}
          connection={editing === 'new' ? null : editing}
          readOnly={readOnly}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmModal
          danger
          title={t('entity.delete.title')}
          confirmLabel={t('global.common.delete')}
          pending={save.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            save.mutate(
              { nodeId, deletedConnectionIds: [deleting.id], updatedConnections: [], newConnections: [] },
              { onSuccess: () => setDeleting(null) },
            )
          }
          confirmTestId="drive-connection-delete-confirm"
        >
          {t('soaApp.nodePanel.drive.deleteQuestion', { name: deleting.name })}
        </ConfirmModal>
      )}
    </div>
  );
}

function DriveConnectionModal({
  nodeId,
  connection,
  readOnly,
  onClose,
}: {
  nodeId: number;
  connection: DriveConnectionDTO | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveDriveConnections(nodeId);
  const config = useQuery(nodeConfigQueries.driveConfig());
  const [name, setName] = useState(connection?.name ?? '');
  const [folderId, setFolderId] = useState(connection?.folderId ?? '');
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const editing = !!connection;

  // A new connection needs the sign-in (its authorization code); an existing one may be re-authorized.
  const codeViolation = editing ? null : requiredRule()(code);
  const violations = [
    ...driveConnectionViolations({ name, folderId }),
    ...(codeViolation ? [{ field: 'authorizationCode', violation: codeViolation }] : []),
  ];
  const invalid = violations.length > 0;
  const violation = (field: string) =>
    submitted || touched.has(field) ? (violations.find((v) => v.field === field)?.violation ?? null) : null;
  const touch = (field: string) => setTouched((tc) => new Set(tc).add(field));

  const onSave = () => {
    setSubmitted(true);
    if (invalid) return;
    const authorizationCode = code.trim();
    save.mutate(
      connection
        ? {
            nodeId,
            deletedConnectionIds: [],
            updatedConnections: [
              {
                id: connection.id,
                name: name.trim(),
                folderId: folderId.trim(),
                authorizationCode: authorizationCode || null,
              },
            ],
            newConnections: [],
          }
        : {
            nodeId,
            deletedConnectionIds: [],
            updatedConnections: [],
            newConnections: [{ name: name.trim(), folderId: folderId.trim(), authorizationCode }],
          },
      { onSuccess: onClose },
    );
  };

  return (
    <Modal
      title={t(editing ? 'soaApp.nodePanel.drive.editTitle' : 'soaApp.nodePanel.drive.addTitle')}
      onClose={onClose}
      testId="drive-connection-modal"
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={readOnly || save.isPending || (submitted && invalid)}
            onClick={onSave}
            data-testid="drive-connection-save"
          >
            {t('global.common.save')}
          </button>
        </>
      }
    >
      <fieldset disabled={readOnly}>
        <Field id="drive-name" label={t('soaApp.nodePanel.drive.name')} violation={violation('name')} show>
          <input
            id="drive-name"
            className={inputClass(violation('name'), true)}
            value={name}
            autoFocus
            onChange={(e) => {
              setName(e.target.value);
              touch('name');
            }}
            data-testid="drive-name"
          />
        </Field>
        <Field
          id="drive-folder"
          label={t('soaApp.nodePanel.drive.folderId')}
          violation={violation('folderId')}
          show
        >
          <input
            id="drive-folder"
            className={inputClass(violation('folderId'), true)}
            value={folderId}
            onChange={(e) => {
              setFolderId(e.target.value);
              touch('folderId');
            }}
            data-testid="drive-folder"
          />
        </Field>
        <div className="mb-2">
          {config.data ? (
            <a
              href={driveSignInUrl(config.data)}
              target="_blank"
              rel="noreferrer"
              className="btn btn-sm btn-outline-primary"
              data-testid="drive-sign-in"
            >
              {t('soaApp.nodePanel.drive.signIn')}
            </a>
          ) : (
            <span className="small text-body-secondary">{t('global.common.loading')}</span>
          )}
        </div>
        <Field
          id="drive-code"
          label={t('soaApp.nodePanel.drive.authorizationCode')}
          violation={violation('authorizationCode')}
          show
          help={t(editing ? 'soaApp.nodePanel.drive.reauthorizeHelp' : 'soaApp.nodePanel.drive.codeHelp')}
        >
          <input
            id="drive-code"
            className={inputClass(violation('authorizationCode'), true)}
            value={code}
            autoComplete="off"
            onChange={(e) => {
              setCode(e.target.value);
              touch('authorizationCode');
            }}
            data-testid="drive-code"
          />
        </Field>
      </fieldset>
    </Modal>
  );
}
