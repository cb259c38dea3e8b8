/**
 * The numbered sections of the node side panel, per activity type (spec 3 "Node side panel"): labels and
 * rules come from the labels feature, the settings areas from this feature.
 */
import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { modeSatisfies } from '@domain';
import type { NodeDTO, TaggingType } from '@domain/graph-types';
import {
  ClassifierLabelsSection,
  LabelsExportSection,
  MatchingRulesSection,
  NerLabelsSection,
  RelationsSection,
} from '../../labels';
import { ActorsSettings } from './ActorsSettings';
import { AdditionalSettings } from './AdditionalSettings';
import { EmailConnections } from './EmailConnections';
import { FileOutputSettings } from './FileOutputSettings';
import { IpsSettings } from './IpsSettings';
import { LlmPromptSettings } from './LlmPromptSettings';
import { SendMailSettings } from './SendMailSettings';
import { SendRequestSettings } from './SendRequestSettings';
import { SftpConnections } from './SftpConnections';
import { SftpTransferRules } from './SftpTransferRules';
import { ExecutionResults } from './ExecutionResults';
import { RerunList } from './RerunList';
import { StepResultExport } from './StepResultExport';
import { AgreementSection } from './AgreementSection';
import { GduSettings, HupSettings } from './UploadSettings';

export interface SectionDef {
  name: string;
  title: string;
  body: ReactNode;
}

export interface SectionInput {
  node: NodeDTO;
  readOnly: boolean;
  onSaveTaggingTypes: (types: TaggingType[]) => Promise<unknown>;
}

export function sectionsFor(
  t: TFunction,
  { node, readOnly, onSaveTaggingTypes }: SectionInput,
): SectionDef[] {
  const id = node.id;
  const s = (name: string, body: ReactNode, title = name): SectionDef => ({
    name,
    title: t(`soaApp.nodePanel.sections.${title}`),
    body,
  });
  const additional = s('additional', <AdditionalSettings />);
  const settings = (body: ReactNode) => s('settings', body);
  // What the node did for each document (a saved node only); a failed send is sent again by an ADMIN.
  const results = (when = true): SectionDef[] =>
    when && id > 0
      ? [
          s(
            'results',
            <ExecutionResults
              nodeId={id}
              processId={node.processId}
              mayResend={modeSatisfies(node.accessMode, 'ADMIN')}
            />,
          ),
        ]
      : [];
  // the figures need ADMIN on the process (the route's access); a node not yet saved has none
  const agreement =
    modeSatisfies(node.accessMode, 'ADMIN') && id > 0
      ? [s('agreement', <AgreementSection nodeId={id} processId={node.processId} />)]
      : [];

  switch (node.activityType) {
    case 'LEXICON':
      return [
        s('labels', <NerLabelsSection nodeId={id} readOnly={readOnly} />),
        s('matchingRules', <MatchingRulesSection nodeId={id} readOnly={readOnly} />),
        additional,
        s(
          'export',
          <>
            <LabelsExportSection nodeId={id} />
            <hr />
            <StepResultExport nodeId={id} activityType={node.activityType} />
          </>,
        ),
        ...results(node.automatic),
        ...agreement,
      ];
    case 'SPAN':
      return [
        s(
          'labels',
          <NerLabelsSection
            nodeId={id}
            readOnly={readOnly}
            showTaggingTypes
            supportedTaggingTypes={node.supportedTaggingTypes ?? []}
            onSaveTaggingTypes={onSaveTaggingTypes}
          />,
        ),
        s('relations', <RelationsSection nodeId={id} readOnly={readOnly} />),
        additional,
        s(
          'export',
          <>
            <LabelsExportSection nodeId={id} />
            <hr />
            <StepResultExport nodeId={id} activityType={node.activityType} />
          </>,
        ),
        ...results(node.automatic),
        ...agreement,
      ];
    case 'CLF':
      return [
        s('labels', <ClassifierLabelsSection nodeId={id} readOnly={readOnly} />),
        additional,
        s('export', <StepResultExport nodeId={id} activityType={node.activityType} />),
        ...results(node.automatic),
        ...agreement,
      ];
    case 'LLM_PROMPT':
      return [
        s('prompt', <LlmPromptSettings />),
        additional,
        s('export', <StepResultExport nodeId={id} activityType={node.activityType} />),
        ...results(),
      ];
    case 'FILE_PARSER':
      return [
        s('actors', <ActorsSettings processId={node.processId} readOnly={readOnly} />),
        additional,
        // the rerun list is a process or node administrator's (the list and the rerun need ADMIN)
        ...(modeSatisfies(node.accessMode, 'ADMIN') && id > 0
          ? [s('rerun', <RerunList nodeId={id} processId={node.processId} />)]
          : []),
      ];
    case 'SEND_MAIL':
      return [settings(<SendMailSettings />), additional, ...results()];
    case 'SEND_REQUEST':
      return [settings(<SendRequestSettings />), additional, ...results()];
    case 'SEND_TO_GOOGLE_DRIVE':
    case 'SEND_TO_SFTP':
      return [settings(<FileOutputSettings />), additional, ...results()];
    case 'IPS':
      return [settings(<IpsSettings />), additional, ...results()];
    case 'IPR':
      return [s('receiver', <AdditionalSettings />)];
    case 'HUP':
      return node.obligatory ? [additional] : [s('upload', <HupSettings />), additional];
    case 'GDU_UPLOAD':
      return [s('upload', <GduSettings />), additional];
    case 'EMAIL_UPLOAD':
      return [
        s('connections', <EmailConnections nodeId={id} readOnly={readOnly} showTitle={false} />),
        additional,
      ];
    case 'SFTP_UPLOAD':
      return [
        s('connections', <SftpConnections nodeId={id} readOnly={readOnly} showTitle={false} />),
        s('transferRules', <SftpTransferRules />),
        additional,
      ];
    default:
      return [additional];
  }
}
