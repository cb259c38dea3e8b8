/**
 * The add / edit dialog of the labelling menu (spec 2 section 2): the labels feature's tag type modal over
 * the node's tag types, adding under the chosen option (top level under a node's root) or editing it. With
 * WRITE but not ADMIN on the node it is the restricted variant (name and colours, spec 2 section 6).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { NerTagTypeDTO } from '@domain/label-types';
import type { TagTypeOption } from '@domain/tags';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { Modal } from '../../../components/Modal';
import { labelQueries, NerLabelModal } from '../../labels';

export interface TagOptionDialogState {
  kind: 'add' | 'edit';
  option: TagTypeOption;
}

export function TagOptionDialog({
  dialog,
  admin,
  onSaved,
  onClose,
}: {
  dialog: TagOptionDialogState;
  /** ADMIN on the node: every field of the tag type, not only the name and colours. */
  admin: boolean;
  onSaved: (saved: NerTagTypeDTO) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { option, kind } = dialog;
  const all = useQuery(labelQueries.nerTagTypes(option.nodeId));
  const label = kind === 'edit' ? all.data?.find((x) => x.id === option.optionId) : undefined;
  // An option deleted meanwhile: nothing to edit.
  const gone = kind === 'edit' && !!all.data && !label;
  useEffect(() => {
    if (gone) onClose();
  }, [gone, onClose]);
  if (!all.data || gone)
    return (
      <Modal title={t('workspace.loading')} onClose={onClose} testId="tag-option-loading">
        <DelayedSpinner label={t('workspace.loading')} />
      </Modal>
    );
  return (
    <NerLabelModal
      nodeId={option.nodeId}
      all={all.data}
      label={label}
      parentId={kind === 'add' && !option.isRoot ? option.optionId : null}
      restricted={!admin}
      onSaved={onSaved}
      onClose={onClose}
    />
  );
}
