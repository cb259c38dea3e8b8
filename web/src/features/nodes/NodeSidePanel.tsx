/**
 * The node side panel beside the flow graph (spec 3 "Node side panel"): the node's name and description
 * (edited in a modal), numbered collapsible sections per activity type, and a footer with Save, the fetch /
 * train buttons of the type and Delete (non-obligatory nodes, after a confirmation). Skeleton lines show
 * once loading takes more than 300 ms; an unknown node shows the 'unknown node' title. Users with READ
 * access on the node see everything disabled.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { modeSatisfies } from '@domain';
import type { NodeDTO, TaggingType } from '@domain/graph-types';
import { isActionType, normalizeCron, TRAINABLE_WHITELIST, type NodeContext } from '@domain/nodes';
import { errorMessages } from '../../api/errors';
import { IconPencil, IconTrash } from '../../components/icons';
import { toast } from '../../components/toast';
import { nodeKeys, nodeQueries } from '../graph/api';
import {
  useDeleteNode,
  useExecuteAction,
  useNodeAction,
  useSaveNode,
  type FetchOutcome,
  type NodeAction,
  type TrainingOutcome,
} from './api';
import { PollerStatus } from './components/PollerStatus';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DelayedSkeleton } from './components/DelayedSkeleton';
import { NodeNameModal } from './components/NodeNameModal';
import { PanelSection } from './components/PanelSection';
import { sectionsFor } from './components/sections';
import { NodeFormProvider, serverFieldErrors, useNodeFormState } from './form';
import './nodes.css';

export interface NodeSidePanelProps {
  nodeId: number;
  processId: number;
  /** The user asks to close the panel (its close button); the page asks first when edits are unsaved. */
  onClose: () => void;
  /** The node was deleted from the panel: close it without asking. */
  onDeleted?: () => void;
  /** Told whenever the panel gets or loses unsaved edits (and false when it goes away). */
  onDirtyChange?: (dirty: boolean) => void;
}

export function NodeSidePanel({ nodeId, processId, onClose, onDeleted, onDirtyChange }: NodeSidePanelProps) {
  const { t } = useTranslation();
  const node = useQuery({ ...nodeQueries.detail(nodeId), retry: false });

  if (node.data) {
    return (
      <NodePanelContent
        key={nodeId}
        node={node.data}
        processId={processId}
        onClose={onClose}
        onDeleted={onDeleted ?? onClose}
        onDirtyChange={onDirtyChange}
      />
    );
  }
  return (
    <aside className="node-panel" data-testid="node-panel" data-node-id={nodeId}>
      <div className="node-panel-header">
        <h2 className="node-panel-title flex-grow-1" data-testid="node-panel-title">
          {node.isPending ? '\u00a0' : t('soaApp.graph.unknownNode')}
        </h2>
        <CloseButton onClose={onClose} />
      </div>
      {node.isPending && <DelayedSkeleton />}
    </aside>
  );
}

function CloseButton({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="btn-close mt-1"
      aria-label={t('global.common.close')}
      onClick={onClose}
      data-testid="node-panel-close"
    />
  );
}

const FETCH_ACTIONS: Partial<Record<NodeDTO['activityType'], NodeAction>> = {
  SFTP_UPLOAD: 'fetchSftp',
  EMAIL_UPLOAD: 'fetchMail',
  GDU_UPLOAD: 'fetchDrive',
};

function NodePanelContent({
  node,
  processId,
  onClose,
  onDeleted,
  onDirtyChange,
}: {
  node: NodeDTO;
  processId: number;
  onClose: () => void;
  onDeleted: () => void;
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const nodes = useQuery(nodeQueries.list(processId));
  const readOnly = !modeSatisfies(node.accessMode, 'WRITE');

  const others = useMemo(() => (nodes.data ?? []).filter((n) => n.id !== node.id), [nodes.data, node.id]);
  const ctx = useMemo<NodeContext>(
    () => ({
      existingNames: others.map((n) => n.name),
      otherEndpoints: others.filter((n) => n.activityType === 'HUP' && n.endpoint).map((n) => n.endpoint!),
    }),
    [others],
  );
  const form = useNodeFormState(node, readOnly, ctx);
  const { dirty, sync } = form;
  // A change made elsewhere (labels, connections, the graph) shows up unless the user is editing.
  useEffect(() => {
    if (!dirty) sync(node);
    // Only a new node object (react-query keeps equal data as the same object) is a change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [node]);
  const unsaved = dirty && !readOnly;
  const onDirtyChangeRef = useRef(onDirtyChange);
  useEffect(() => {
    onDirtyChangeRef.current = onDirtyChange;
  });
  useEffect(() => onDirtyChangeRef.current?.(unsaved), [unsaved]);
  useEffect(() => () => onDirtyChangeRef.current?.(false), []);
  const save = useSaveNode();
  const remove = useDeleteNode();
  const execute = useExecuteAction();
  const action = useNodeAction();
  const [dialog, setDialog] = useState<'name' | 'delete' | 'cron' | null>(null);
  const panelRef = useRef<HTMLElement>(null);

  const saved = form.node;
  const latest = () =>
    queryClient.getQueryData<NodeDTO[]>(nodeKeys.list(processId))?.find((n) => n.id === saved.id) ??
    queryClient.getQueryData<NodeDTO>(nodeKeys.detail(saved.id)) ??
    saved;
  /** The node as stored, with the position the graph may have changed meanwhile. */
  const withPosition = (n: NodeDTO): NodeDTO => ({ ...n, x: latest().x, y: latest().y });

  const scrollToFirstError = () =>
    window.requestAnimationFrame(() =>
      panelRef.current?.querySelector('.is-invalid, .invalid-feedback')?.scrollIntoView({ block: 'center' }),
    );

  const reportFailure = (error: unknown) => {
    const fields = serverFieldErrors(error);
    if (fields) {
      form.setServerErrors(fields);
      form.setSubmitted(true);
      toast.error(t('soaApp.nodePanel.invalid'));
      scrollToFirstError();
    } else {
      for (const text of errorMessages(t, error)) toast.error(text);
    }
  };

  const doSave = (executeAfter: boolean) => {
    setDialog(null);
    save.mutate(withPosition(form.draft), {
      onSuccess: ({ node: stored, alerted }) => {
        form.reset(stored);
        if (!alerted) toast.success(t('soaApp.nodePanel.saved', { name: stored.name }));
        if (executeAfter)
          execute.mutate(stored.id, {
            onSuccess: (run) => {
              if (run.status === 'FAILURE')
                toast.warning(t('soaApp.nodePanel.footer.executeFailed', { error: run.error ?? '' }));
              else toast.success(t('soaApp.nodePanel.footer.executeDone', { count: run.documents }));
            },
            onError: (e) => {
              for (const text of errorMessages(t, e)) toast.error(text);
            },
          });
      },
      onError: reportFailure,
    });
  };

  const onSave = () => {
    form.setSubmitted(true);
    if (form.violations.length > 0) {
      toast.warning(t('soaApp.nodePanel.invalid'));
      scrollToFirstError();
      return;
    }
    const d = form.draft;
    const cronChanged = saved.triggerType !== 'CRON' || normalizeCron(saved.cron) !== normalizeCron(d.cron);
    if (isActionType(d.activityType) && d.triggerType === 'CRON' && cronChanged) setDialog('cron');
    else doSave(false);
  };

  const saveFields = async (fields: Partial<NodeDTO>) => {
    try {
      const res = await save.mutateAsync(withPosition({ ...saved, ...fields }));
      form.markSaved(res.node, Object.keys(fields) as (keyof NodeDTO)[]);
      if (!res.alerted) toast.success(t('soaApp.nodePanel.saved', { name: res.node.name }));
      setDialog(null);
    } catch (e) {
      reportFailure(e);
      throw e;
    }
  };

  const onSaveTaggingTypes = (supportedTaggingTypes: TaggingType[]) => saveFields({ supportedTaggingTypes });

  const runAction = (kind: NodeAction) =>
    action.mutate(
      { action: kind, nodeId: saved.id },
      {
        onSuccess: (outcome) => {
          if (kind === 'train') {
            toast.success(
              t('soaApp.nodePanel.footer.trainDone', { count: (outcome as TrainingOutcome).documents }),
            );
            return;
          }
          const { imported, errors } = outcome as FetchOutcome;
          if (errors.length)
            toast.warning(
              t('soaApp.nodePanel.footer.fetchDoneWithErrors', {
                count: imported,
                errors: errors.join('; '),
              }),
            );
          else toast.success(t('soaApp.nodePanel.footer.fetchDone', { count: imported }));
        },
        onError: (e) => {
          for (const text of errorMessages(t, e)) toast.error(text);
        },
      },
    );

  const sections = sectionsFor(t, { node: form.draft, readOnly, onSaveTaggingTypes });
  const fetchAction = FETCH_ACTIONS[saved.activityType];
  const trainable = TRAINABLE_WHITELIST.includes(saved.activityType) && !!saved.trainableConfig;

  return (
    <NodeFormProvider value={form}>
      <aside className="node-panel" data-testid="node-panel" data-node-id={saved.id} ref={panelRef}>
        <div className="node-panel-header">
          <div className="flex-grow-1 min-w-0">
            <div className="node-panel-type text-body-secondary">
              {t(`soaApp.graph.nodeTypes.${saved.activityType}`)}
            </div>
            <div className="d-flex align-items-start gap-1">
              <h2 className="node-panel-title" data-testid="node-panel-title">
                {saved.name}
              </h2>
              <button
                type="button"
                className="btn btn-sm btn-link p-0 px-1 text-body-secondary"
                title={t('soaApp.nodePanel.name.edit')}
                aria-label={t('soaApp.nodePanel.name.edit')}
                disabled={readOnly}
                onClick={() => setDialog('name')}
                data-testid="node-edit-name"
              >
                <IconPencil />
              </button>
            </div>
            {saved.description ? (
              <p
                className="node-panel-description text-body-secondary mb-0"
                data-testid="node-panel-description"
              >
                {saved.description}
              </p>
            ) : null}
          </div>
          <CloseButton onClose={onClose} />
        </div>

        <div className="node-panel-body" key={form.version}>
          {readOnly && (
            <div className="alert alert-secondary py-2 small mt-2 mb-0" data-testid="node-panel-readonly">
              {t('soaApp.nodePanel.readOnly')}
            </div>
          )}
          {fetchAction && <PollerStatus status={saved.pollerStatus ?? null} />}
          {sections.map((section, i) => (
            <PanelSection key={section.name} name={section.name} number={i + 1} title={section.title}>
              {section.body}
            </PanelSection>
          ))}
        </div>

        <div className="node-panel-footer">
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={readOnly || save.isPending}
            onClick={onSave}
            data-testid="node-save"
          >
            {save.isPending && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
            {t('global.common.save')}
          </button>
          {unsaved && (
            <span className="small text-body-secondary" data-testid="node-unsaved">
              {t('soaApp.nodePanel.unsaved')}
            </span>
          )}
          <div className="ms-auto d-flex flex-wrap gap-2">
            {fetchAction && (
              <button
                type="button"
                className="btn btn-outline-secondary btn-sm"
                disabled={readOnly || action.isPending}
                onClick={() => runAction(fetchAction)}
                data-testid={`node-${fetchAction}`}
              >
                {t(`soaApp.nodePanel.footer.${fetchAction}`)}
              </button>
            )}
            {trainable && (
              <button
                type="button"
                className="btn btn-outline-secondary btn-sm"
                disabled={readOnly || action.isPending}
                onClick={() => runAction('train')}
                data-testid="node-train"
              >
                {t('soaApp.nodePanel.footer.train')}
              </button>
            )}
            {!saved.obligatory && (
              <button
                type="button"
                className="btn btn-outline-danger btn-sm"
                disabled={readOnly || remove.isPending}
                onClick={() => setDialog('delete')}
                data-testid="node-delete"
              >
                <IconTrash className="me-1" />
                {t('global.common.delete')}
              </button>
            )}
          </div>
        </div>

        {dialog === 'name' && (
          <NodeNameModal
            name={saved.name}
            description={saved.description}
            otherNames={ctx.existingNames ?? []}
            pending={save.isPending}
            onClose={() => setDialog(null)}
            onSave={(name, description) => void saveFields({ name, description }).catch(() => undefined)}
          />
        )}
        {dialog === 'delete' && (
          <ConfirmModal
            danger
            title={t('entity.delete.title')}
            confirmLabel={t('global.common.delete')}
            pending={remove.isPending}
            onClose={() => setDialog(null)}
            onConfirm={() =>
              remove.mutate(saved.id, { onSuccess: onDeleted, onSettled: () => setDialog(null) })
            }
            testId="node-delete-modal"
            confirmTestId="node-delete-confirm"
          >
            {t('soaApp.nodePanel.deleteQuestion', { name: saved.name })}
          </ConfirmModal>
        )}
        {dialog === 'cron' && (
          <ConfirmModal
            title={t('soaApp.nodePanel.trigger.cronConfirmTitle')}
            confirmLabel={t('soaApp.nodePanel.trigger.cronConfirm')}
            pending={save.isPending}
            onClose={() => setDialog(null)}
            onConfirm={() => doSave(true)}
            testId="node-cron-confirm-modal"
            confirmTestId="node-cron-confirm"
          >
            {t('soaApp.nodePanel.trigger.cronConfirmBody')}
          </ConfirmModal>
        )}
      </aside>
    </NodeFormProvider>
  );
}
