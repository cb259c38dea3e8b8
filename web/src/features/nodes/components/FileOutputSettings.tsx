/**
 * Send to cloud drive / send to SFTP: the trigger, the preferred file name (one line, allowed characters
 * only, no pasting) and the file content, both with wildcards; the node's connection(s) and, for SFTP, the
 * connection the file goes to.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FILENAME_PATTERN } from '@domain/node-settings';
import { nodeConfigQueries } from '../api';
import { useNodeForm } from '../form';
import { DriveConnections } from './DriveConnections';
import { SelectInput } from './fields';
import { SftpConnections } from './SftpConnections';
import { TemplateField, plainEditorState } from './TemplateField';
import { TriggerSettings } from './TriggerSettings';

/** Keeps the characters a preferred file name may hold (and drops line breaks). */
export const filenameChars = (text: string): string =>
  [...text].filter((ch) => FILENAME_PATTERN.test(ch)).join('');

export function FileOutputSettings() {
  const { t } = useTranslation();
  const { draft, patch, readOnly } = useNodeForm();
  const sftp = draft.activityType === 'SEND_TO_SFTP';
  const connections = useQuery({ ...nodeConfigQueries.sftpConnections(draft.id), enabled: sftp });

  return (
    <>
      <TriggerSettings />
      <TemplateField
        id="node-preferred-filename"
        field="preferredFilename"
        context="filename"
        singleLine
        noPaste
        accept={filenameChars}
        label={t('soaApp.nodePanel.file.preferredFilename')}
        value={draft.preferredFilename}
        onChange={(preferredFilename) =>
          patch({ preferredFilename, preferredFilenameEditorState: plainEditorState(preferredFilename) })
        }
        testId="file-preferred-filename"
      />
      <TemplateField
        id="node-file-content"
        field="fileContent"
        context="node"
        rows={6}
        label={t('soaApp.nodePanel.file.fileContent')}
        value={draft.fileContent}
        onChange={(fileContent) =>
          patch({ fileContent, fileContentEditorState: plainEditorState(fileContent) })
        }
        testId="file-content"
      />
      {sftp ? (
        <>
          <SftpConnections nodeId={draft.id} readOnly={readOnly} />
          <SelectInput
            id="node-sftp-connection"
            field="sftpConnection"
            label={t('soaApp.nodePanel.file.sftpConnection')}
            value={draft.sftpConnection?.id ?? ''}
            onChange={(v) => patch({ sftpConnection: v ? { id: Number(v) } : null })}
            testId="file-sftp-connection"
          >
            <option value="">{t('soaApp.nodePanel.choose')}</option>
            {(connections.data ?? []).map((c) => (
              <option key={c.id} value={c.id!}>
                {c.name}
              </option>
            ))}
          </SelectInput>
        </>
      ) : (
        <DriveConnections nodeId={draft.id} readOnly={readOnly} />
      )}
    </>
  );
}
