/**
 * The pattern the node panel repeats for its lists (e-mail, SFTP and drive connections, SFTP transfer rules):
 * a table with an Add button, Edit and Delete per row (Delete asked first or done at once), and an add/edit
 * modal with Cancel and Save. Test ids follow one prefix: `<prefix>-add`, `-row`, `-edit`, `-delete`,
 * `-delete-confirm` and `-save`.
 */
import { useState, type InputHTMLAttributes, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Violation } from '@domain';
import { Field, inputClass } from '../../../components/FormField';
import { IconPencil, IconPlus, IconTrash } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { ConfirmModal } from '../../../components/ConfirmModal';

/** The props of a node's list of connections. */
export interface ConnectionListProps {
  nodeId: number;
  readOnly: boolean;
  /** Off when the panel section already names the table. */
  showTitle?: boolean;
}

export interface ItemColumn<T> {
  header: ReactNode;
  cell: (row: T, index: number) => ReactNode;
  cellClassName?: string;
}

export interface ItemTableProps<T> {
  /** Test id of the whole block. */
  testId: string;
  /** Prefix of the test ids of the Add button, the rows and their buttons. */
  itemTestId: string;
  /** Shown left of the Add button (none when the panel section already names the table). */
  title?: ReactNode;
  addLabel: ReactNode;
  addDisabled?: boolean;
  addTitle?: string;
  /** Shown instead of the table when there are no rows (e.g. loading or 'none'). */
  empty: ReactNode;
  rows: T[];
  rowKey: (row: T, index: number) => Key;
  columns: ItemColumn<T>[];
  readOnly: boolean;
  /** The add (item null) or edit modal. */
  editor: (item: T | null, close: () => void) => ReactNode;
  /** Delete at once (no question asked). */
  onDelete?: (row: T, index: number) => void;
  /** Delete after a confirmation; `remove` calls `done` once the row is gone. */
  confirmDelete?: {
    question: (row: T) => ReactNode;
    pending: boolean;
    remove: (row: T, done: () => void) => void;
  };
}

export function ItemTable<T>({
  testId,
  itemTestId,
  title,
  addLabel,
  addDisabled,
  addTitle,
  empty,
  rows,
  rowKey,
  columns,
  readOnly,
  editor,
  onDelete,
  confirmDelete,
}: ItemTableProps<T>) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ item: T | null } | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const close = () => setEditing(null);

  return (
    <div data-testid={testId}>
      <div className="d-flex align-items-center mb-2">
        <div className="node-subtitle m-0 me-auto">{title}</div>
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          disabled={readOnly || addDisabled}
          title={addTitle}
          onClick={() => setEditing({ item: null })}
          data-testid={`${itemTestId}-add`}
        >
          <IconPlus className="me-1" />
          {addLabel}
        </button>
      </div>
      {rows.length === 0 ? (
        <div className="small text-body-secondary mb-2">{empty}</div>
      ) : (
        <table className="table table-sm node-table mb-2">
          <thead>
            <tr>
              {columns.map((c, i) => (
                <th key={i}>{c.header}</th>
              ))}
              <th className="col-actions">
                <span className="visually-hidden">{t('soaApp.nodePanel.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={rowKey(row, i)} data-testid={`${itemTestId}-row`}>
                {columns.map((c, j) => (
                  <td key={j} className={c.cellClassName}>
                    {c.cell(row, i)}
                  </td>
                ))}
                <td className="col-actions">
                  <button
                    type="button"
                    className="btn btn-sm btn-link p-1"
                    title={t('global.common.edit')}
                    onClick={() => setEditing({ item: row })}
                    data-testid={`${itemTestId}-edit`}
                  >
                    <IconPencil />
                  </button>
                  <button
                    type="button"
                    className="btn btn-sm btn-link text-danger p-1"
                    title={t('global.common.delete')}
                    disabled={readOnly}
                    onClick={() => (confirmDelete ? setDeleting(row) : onDelete?.(row, i))}
                    data-testid={`${itemTestId}-delete`}
                  >
                    <IconTrash />
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && editor(editing.item, close)}
      {deleting !== null && confirmDelete && (
        <ConfirmModal
          danger
          title={t('entity.delete.title')}
          confirmLabel={t('global.common.delete')}
          pending={confirmDelete.pending}
          onClose={() => setDeleting(null)}
          onConfirm={() => confirmDelete.remove(deleting, () => setDeleting(null))}
          confirmTestId={`${itemTestId}-delete-confirm`}
        >
          {confirmDelete.question(deleting)}
        </ConfirmModal>
      )}
    </div>
  );
}

/** The add/edit modal of an ItemTable row: the fields in a fieldset (disabled when read-only), Cancel, Save. */
export function ItemModal({
  title,
  testId,
  saveTestId,
  readOnly,
  saveDisabled,
  onSave,
  onClose,
  footerStart,
  children,
}: {
  title: ReactNode;
  testId: string;
  saveTestId: string;
  readOnly: boolean;
  /** Save is also disabled when read-only. */
  saveDisabled: boolean;
  onSave: () => void;
  onClose: () => void;
  /** Footer content before Cancel (e.g. a Test button and its result). */
  footerStart?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      title={title}
      onClose={onClose}
      testId={testId}
      footer={
        <>
          {footerStart}
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={readOnly || saveDisabled}
            onClick={onSave}
            data-testid={saveTestId}
          >
            {t('global.common.save')}
          </button>
        </>
      }
    >
      <fieldset disabled={readOnly}>{children}</fieldset>
    </Modal>
  );
}

/**
 * Messages of a modal form: a field's violation shows once the field was changed or a save was tried.
 * `submit()` marks the try and tells whether the form may be sent.
 */
export function useShownViolations(violations: { field: string; violation: Violation }[]) {
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const invalid = violations.length > 0;
  return {
    invalid,
    submitted,
    violation: (field: string): Violation | null =>
      submitted || touched.has(field) ? (violations.find((v) => v.field === field)?.violation ?? null) : null,
    touch: (field: string) => setTouched((tc) => new Set(tc).add(field)),
    submit: () => {
      setSubmitted(true);
      return !invalid;
    },
  };
}

/** A labelled input of an ItemModal with its message underneath; `fieldClassName` is the wrapper's class. */
export function ModalInput({
  id,
  label,
  violation,
  onValue,
  testId,
  help,
  fieldClassName,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange' | 'className'> & {
  id: string;
  label: ReactNode;
  violation: Violation | null;
  onValue: (value: string) => void;
  testId: string;
  help?: ReactNode;
  fieldClassName?: string;
}) {
  return (
    <Field id={id} label={label} violation={violation} show help={help} className={fieldClassName}>
      <input
        id={id}
        className={inputClass(violation, true)}
        onChange={(e) => onValue(e.target.value)}
        data-testid={testId}
        {...input}
      />
    </Field>
  );
}
