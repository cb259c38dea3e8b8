/** The 'Upload' group box drawn behind the column of upload-type nodes. */
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import type { UploadGroupFlowNode } from '../flowModel';

function UploadGroupView(_props: NodeProps<UploadGroupFlowNode>) {
  const { t } = useTranslation();
  return (
    <div className="graph-upload-group" data-testid="graph-upload-group">
      <div className="graph-upload-group-title">{t('soaApp.graph.uploadGroup')}</div>
    </div>
  );
}

export const UploadGroupNode = memo(UploadGroupView);
