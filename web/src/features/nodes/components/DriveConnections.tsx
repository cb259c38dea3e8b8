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
import { nodeConfigQueries, useSaveDriveConnections } from '../api';
import { ItemModal, ItemTable, ModalInput, useShownViolations } from './ItemTable';

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
  const rows = connections.data ?? [];
  const full = rows.length >= MAX_DRIVE_CONNECTIONS_PER_NODE;

  return (
    <ItemTable<DriveConnectionDTO>
      testId="drive-connections"
      itemTestId="drive-connection"
      title={t('soaApp.nodePanel.drive.connection')}
      addLabel={t('soaApp.nodePanel.drive.add')}
      addDisabled={full}
      addTitle={full ? t('soaApp.nodePanel.drive.onlyOne') : undefined}
      empty={connections.isPending ? t('global.common.loading') : t('soaApp.nodePanel.drive.none')}
      rows={rows}
      rowKey={(c) => c.id}
      columns={[
        { header: t('soaApp.nodePanel.drive.name'), cell: (c) => c.name },
        {
          header: t('soaApp.nodePanel.drive.folderId'),
          cell: (c) => c.folderId,
          cellClassName: 'text-break',
        },
        {
          header: t('soaApp.nodePanel.drive.status'),
          cell: (c) => (
            <span className={`badge ${c.authorized ? 'text-bg-success' : 'text-bg-warning'}`}>
              {t(c.authorized ? 'soaApp.nodePanel.drive.authorized' : 'soaApp.nodePanel.drive.notAuthorized')}
            </span>
          ),
        },
      ]}
      readOnly={readOnly}
      editor={(connection, close) => (
        <DriveConnectionModal nodeId={nodeId} connection={connection} readOnly={readOnly} onClose={close} />
      )}
      confirmDelete={{
        question: (c) => t('soaApp.nodePanel.drive.deleteQuestion', { name: c.name }),
        pending: save.isPending,
        remove: (c, done) =>
          save.mutate(
            { nodeId, deletedConnectionIds: [c.id], updatedConnections: [], newConnections: [] },
            { onSuccess: done },
          ),
      }}
    />
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
  const editing = !!connection;

  // A new connection needs the sign-in (its authorization code); an existing one may be re-authorized.
  const codeViolation = editing ? null : requiredRule()(code);
  const violations = [
    ...driveConnectionViolations({ name, folderId }),
    ...(codeViolation ? [{ field: 'authorizationCode', violation: codeViolation }] : []),
  ];
  const { violation, touch, submit, submitted, invalid } = useShownViolations(violations);

  const onSave = () => {
    if (!submit()) return;
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
    <ItemModal
      title={t(editing ? 'soaApp.nodePanel.drive.editTitle' : 'soaApp.nodePanel.drive.addTitle')}
      testId="drive-connection-modal"
      saveTestId="drive-connection-save"
      readOnly={readOnly}
      saveDisabled={save.isPending || (submitted && invalid)}
      onSave={onSave}
      onClose={onClose}
    >
      <ModalInput
        id="drive-name"
        label={t('soaApp.nodePanel.drive.name')}
        violation={violation('name')}
        value={name}
        autoFocus
        onValue={(v) => {
          setName(v);
          touch('name');
        }}
        testId="drive-name"
      />
      <ModalInput
        id="drive-folder"
        label={t('soaApp.nodePanel.drive.folderId')}
        violation={violation('folderId')}
        value={folderId}
        onValue={(v) => {
          setFolderId(v);
          touch('folderId');
        }}
        testId="drive-folder"
      />
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
      <ModalInput
        id="drive-code"
        label={t('soaApp.nodePanel.drive.authorizationCode')}
        violation={violation('authorizationCode')}
        help={t(editing ? 'soaApp.nodePanel.drive.reauthorizeHelp' : 'soaApp.nodePanel.drive.codeHelp')}
        value={code}
        autoComplete="off"
        onValue={(v) => {
          setCode(v);
          touch('authorizationCode');
        }}
        testId="drive-code"
      />
    </ItemModal>
  );
}
