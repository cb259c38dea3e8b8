/** The NER label tree: nested rows with a colour bar, the name as a badge, flags, and edit/delete icons. */
import { useTranslation } from 'react-i18next';
import type { NerTagTypeDTO } from '@domain/label-types';
import type { TreeNode } from '@domain/labels';
import { LabelRowActions } from './LabelRowActions';

export interface NerLabelTreeProps {
  nodes: readonly TreeNode<NerTagTypeDTO>[];
  readOnly: boolean;
  onEdit: (label: NerTagTypeDTO) => void;
  onDelete: (label: NerTagTypeDTO) => void;
  nested?: boolean;
}

export function NerLabelTree({ nodes, readOnly, onEdit, onDelete, nested }: NerLabelTreeProps) {
  const { t } = useTranslation();
  return (
    <ul className={nested ? 'labels-tree-children' : 'labels-list'} role={nested ? 'group' : 'tree'}>
      {nodes.map((label) => (
        <li key={label.id} role="treeitem" aria-expanded={label.children.length > 0 ? true : undefined}>
          <div className="labels-row" data-testid="ner-label-row" data-label-id={label.id}>
            <span className="labels-color-bar" style={{ backgroundColor: label.backgroundColor }} />
            <div className="labels-row-main">
              <span
                className="badge fw-medium labels-row-name"
                style={{ backgroundColor: label.backgroundColor, color: label.textColor }}
                data-testid="ner-label-row-name"
              >
                {label.name}
              </span>
              {label.dataFormat && (
                <span className="badge text-bg-light border ms-1">
                  {t(`soaApp.labels.ner.dataFormats.${label.dataFormat}`)}
                </span>
              )}
              {label.mandatory && (
                <span className="badge text-bg-light border ms-1">{t('soaApp.labels.ner.mandatory')}</span>
              )}
              {label.disabled && (
                <span className="badge text-bg-secondary ms-1">{t('soaApp.labels.ner.disabled')}</span>
              )}
              {!label.selectable && (
                <span className="badge text-bg-light border ms-1">
                  {t('soaApp.labels.ner.notSelectable')}
                </span>
              )}
              {(label.prefixKey || label.suffixKey) && (
                <span className="ms-2" title={t('soaApp.labels.common.shortcut')}>
                  {[label.prefixKey, label.suffixKey].filter(Boolean).map((k, i) => (
                    <kbd key={i} className="labels-kbd me-1">
                      {k}
                    </kbd>
                  ))}
                </span>
              )}
            </div>
            {!readOnly && (
              <LabelRowActions
                testIdPrefix="ner-label"
                onEdit={() => onEdit(label)}
                onDelete={() => onDelete(label)}
              />
            )}
          </div>
          {label.children.length > 0 && (
            <NerLabelTree
              nodes={label.children}
              readOnly={readOnly}
              onEdit={onEdit}
              onDelete={onDelete}
              nested
            />
          )}
        </li>
      ))}
    </ul>
  );
}
