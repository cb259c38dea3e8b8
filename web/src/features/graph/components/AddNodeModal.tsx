/**
 * The Add node modal (spec 3): node type, name, and a collapsible 'Additional settings' area with the
 * description and the few type-specific fields worth setting at creation; the rest is configured in the
 * node's side panel. Creation is lenient on the server: missing settings take the type's defaults.
 * A file parser's status after its automatic run is chosen explicitly (issue 29 section 2), each choice
 * saying what it means for the documents: they wait for proofreading at the parser, or go on at once.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActivityType } from '@domain';
import { TaggingTypes, type NodeInput, type TaggingType } from '@domain/graph-types';
import { nodeNameRule } from '@domain/nodes';
import { DEFAULT_TAGGING_TYPES, randomEndpoint } from '@domain/node-settings';
import { endpointRule, supportedTaggingTypesRule } from '@domain/node-settings-rules';
import { Field, ViolationMessage, inputClass } from '../../../components/FormField';
import { Modal } from '../../../components/Modal';
import type { XY } from '../layout';

export interface AddNodeRequest {
  /** The node the new one follows (an edge is added from it), or null for a free-standing node. */
  sourceId: number | null;
  type: ActivityType;
  position: XY;
}

export interface AddNodeModalProps {
  request: AddNodeRequest;
  processId: number;
  /** Types the dropdown offers (the follow-ups of the source, or every type). */
  types: readonly ActivityType[];
  existingNames: readonly string[];
  /** Endpoints of the process's HTTP upload nodes (a new one must differ). */
  existingEndpoints: readonly string[];
  pending: boolean;
  onTypeChange: (type: ActivityType) => void;
  onAdd: (node: NodeInput) => void;
  onCancel: () => void;
}

export function AddNodeModal({
  request,
  processId,
  types,
  existingNames,
  existingEndpoints,
  pending,
  onTypeChange,
  onAdd,
  onCancel,
}: AddNodeModalProps) {
  const { t } = useTranslation();
  const id = useId();
  const type = request.type;
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [showMore, setShowMore] = useState(false);
  const [description, setDescription] = useState('');
  const [mandatory, setMandatory] = useState(false);
  const [endpoint, setEndpoint] = useState(randomEndpoint);
  const [tagging, setTagging] = useState<TaggingType[]>([...DEFAULT_TAGGING_TYPES]);
  const [afterParse, setAfterParse] = useState<'WAITING' | 'DONE' | null>(null);

  const nameViolation = nodeNameRule(name, existingNames);
  const showName = touched || submitted;
  const endpointViolation =
    type === 'HUP'
      ? (endpointRule(endpoint.trim(), { otherEndpoints: existingEndpoints })[0]?.violation ?? null)
      : null;
  const taggingViolation =
    type === 'SPAN' ? (supportedTaggingTypesRule(tagging)[0]?.violation ?? null) : null;
  const parseViolation =
    type === 'FILE_PARSER' && afterParse === null ? 'soaApp.graph.addModal.afterParse.required' : null;
  const invalid = !!nameViolation || !!endpointViolation || !!taggingViolation || !!parseViolation;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (invalid || pending) return;
    const node: NodeInput = {
      name: name.trim(),
      description: description.trim() || null,
      activityType: type,
      processId,
      x: Math.round(request.position.x),
      y: Math.round(request.position.y),
    };
    if (type === 'CLF') node.mandatory = mandatory;
    if (type === 'HUP') Object.assign(node, { endpoint: endpoint.trim(), active: true });
    if (type === 'SPAN') node.supportedTaggingTypes = tagging;
    if (type === 'FILE_PARSER' && afterParse) node.autoStepStatus = afterParse;
    onAdd(node);
  };

  const typeLabel = (tp: string) => t(`soaApp.graph.nodeTypes.${tp}`, { defaultValue: tp });

  return (
    <Modal
      title={t('soaApp.graph.addModal.title')}
      onClose={onCancel}
      testId="add-node-modal"
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
            {t('global.common.cancel')}
          </button>
          <button
            type="submit"
            form={`${id}-form`}
            className="btn btn-primary px-4"
            disabled={invalid || pending}
            data-testid="add-node-submit"
          >
            {pending && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
            {t('soaApp.graph.addModal.add')}
          </button>
        </>
      }
    >
      <form id={`${id}-form`} onSubmit={submit} noValidate>
        <Field id={`${id}-type`} label={t('soaApp.graph.addModal.type')} violation={null} show={false}>
          <select
            id={`${id}-type`}
            className="form-select"
            value={type}
            onChange={(e) => onTypeChange(e.target.value as ActivityType)}
            data-testid="add-node-type"
          >
            {types.map((tp) => (
              <option key={tp} value={tp}>
                {typeLabel(tp)}
              </option>
            ))}
          </select>
        </Field>
        <Field
          id={`${id}-name`}
          label={t('soaApp.graph.addModal.name')}
          violation={nameViolation}
          show={showName}
        >
          <input
            id={`${id}-name`}
            className={inputClass(nameViolation, showName)}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setTouched(true);
            }}
            placeholder={t('soaApp.graph.addModal.namePlaceholder')}
            autoFocus
            autoComplete="off"
            data-testid="add-node-name"
          />
        </Field>

        {type === 'FILE_PARSER' && (
          <fieldset className="mb-3" aria-describedby={`${id}-after-parse-help`}>
            <legend className="form-label fs-6 mb-1">{t('soaApp.graph.addModal.afterParse.legend')}</legend>
            {(['WAITING', 'DONE'] as const).map((status) => (
              <div className="form-check" key={status}>
                <input
                  id={`${id}-after-${status}`}
                  type="radio"
                  name={`${id}-after-parse`}
                  className={`form-check-input${parseViolation && submitted ? ' is-invalid' : ''}`}
                  checked={afterParse === status}
                  onChange={() => setAfterParse(status)}
                />
                <label htmlFor={`${id}-after-${status}`} className="form-check-label">
                  <span className="fw-semibold">{t(`soaApp.graph.addModal.afterParse.${status}`)}</span>
                  <span className="d-block small text-body-secondary">
                    {t(`soaApp.graph.addModal.afterParse.${status}Means`)}
                  </span>
                </label>
              </div>
            ))}
            <div id={`${id}-after-parse-help`} className="form-text">
              {t('soaApp.graph.addModal.afterParse.help')}
            </div>
            {parseViolation && submitted && (
              <div className="invalid-feedback d-block" role="alert">
                {t(parseViolation)}
              </div>
            )}
          </fieldset>
        )}
        <button
          type="button"
          className="btn btn-link px-0 text-decoration-none graph-collapse-toggle"
          aria-expanded={showMore}
          aria-controls={`${id}-more`}
          onClick={() => setShowMore((s) => !s)}
          data-testid="add-node-additional"
        >
          <span className="graph-caret" aria-hidden="true">
            {showMore ? '▾' : '▸'}
          </span>
          {t('soaApp.graph.addModal.additional')}
        </button>
        {showMore && (
          <div id={`${id}-more`} className="graph-collapse-body">
            <Field
              id={`${id}-description`}
              label={t('soaApp.graph.addModal.description')}
              violation={null}
              show={false}
            >
              <textarea
                id={`${id}-description`}
                className="form-control"
                rows={2}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
                data-testid="add-node-description"
              />
            </Field>
            {type === 'CLF' && (
              <div className="form-check mb-3">
                <input
                  id={`${id}-mandatory`}
                  type="checkbox"
                  className="form-check-input"
                  checked={mandatory}
                  onChange={(e) => setMandatory(e.target.checked)}
                  data-testid="add-node-mandatory"
                />
                <label htmlFor={`${id}-mandatory`} className="form-check-label">
                  {t('soaApp.graph.addModal.mandatory')}
                </label>
              </div>
            )}
            {type === 'HUP' && (
              <Field
                id={`${id}-endpoint`}
                label={t('soaApp.graph.addModal.endpoint')}
                violation={endpointViolation}
                show
              >
                <div className="input-group">
                  <input
                    id={`${id}-endpoint`}
                    className={inputClass(endpointViolation, true, 'form-control font-monospace')}
                    value={endpoint}
                    onChange={(e) => setEndpoint(e.target.value)}
                    data-testid="add-node-endpoint"
                  />
                  <button
                    type="button"
                    className="btn btn-outline-secondary"
                    onClick={() => setEndpoint(randomEndpoint())}
                  >
                    {t('soaApp.graph.addModal.generate')}
                  </button>
                </div>
              </Field>
            )}
            {type === 'SPAN' && (
              <fieldset className="mb-3">
                <legend className="form-label fs-6">{t('soaApp.graph.addModal.taggingTypes')}</legend>
                {TaggingTypes.map((tt) => (
                  <div className="form-check form-check-inline" key={tt}>
                    <input
                      id={`${id}-tagging-${tt}`}
                      type="checkbox"
                      className="form-check-input"
                      checked={tagging.includes(tt)}
                      onChange={(e) =>
                        setTagging((list) =>
                          e.target.checked ? [...list, tt] : list.filter((x) => x !== tt),
                        )
                      }
                    />
                    <label htmlFor={`${id}-tagging-${tt}`} className="form-check-label">
                      {t(`soaApp.graph.taggingTypes.${tt}`)}
                    </label>
                  </div>
                ))}
                {taggingViolation && <ViolationMessage violation={taggingViolation} />}
              </fieldset>
            )}
          </div>
        )}
      </form>
    </Modal>
  );
}
