/** Create a Sphere: name, tags (exactly one system tag), optional RAG with a text splitter; then on to its graph. */
import { useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { hasGlobalProcessPermission, isAdmin, predefinedTagRule, processNameRule } from '@domain';
import { Field, ViolationMessage, inputClass } from '../../../components/FormField';
import { IconArrowLeft, IconTag } from '../../../components/icons';
import { TagBadge } from '../../../components/TagBadge';
import { useSession } from '../../account/session';
import { processQueries, splitterQueries, tagQueries, useCreateProcess } from '../api';
import { TagSelectModal } from './TagSelectModal';

export function ProcessCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { principal } = useSession();
  const processes = useQuery(processQueries.list());
  const tags = useQuery(tagQueries.list());
  const create = useCreateProcess();

  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [tagsTouched, setTagsTouched] = useState(false);
  const [tagModal, setTagModal] = useState(false);
  const [rag, setRag] = useState(false);
  const [splitterId, setSplitterId] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const splitters = useQuery({ ...splitterQueries.list(), enabled: rag });

  const existingNames = useMemo(() => (processes.data ?? []).map((p) => p.name), [processes.data]);
  const selectedTags = (tags.data ?? []).filter((tag) => tagIds.includes(tag.id));
  const nameViolation = processNameRule(name, existingNames);
  const tagViolation = predefinedTagRule(selectedTags);
  const invalid = !!nameViolation || !!tagViolation;
  const canManageTags = !!principal && hasGlobalProcessPermission(principal, 'WRITE');

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (invalid) return;
    create.mutate(
      {
        name: name.trim(),
        isRagEnabled: rag,
        processTags: selectedTags.map((tag) => ({ id: tag.id })),
        ragTextSplitter: rag && splitterId ? { id: Number(splitterId) } : null,
      },
      { onSuccess: (created) => navigate(`/entity/process/${created.id}/graph`) },
    );
  };

  const showName = nameTouched || submitted;
  const showTags = tagsTouched || submitted;

  return (
    <div className="container page-narrow py-4">
      <h1 className="h3 mb-3">{t('soaApp.process.create.title')}</h1>
      <form className="card shadow-sm border-0" onSubmit={onSubmit} noValidate data-testid="process-form">
        <div className="card-body p-4">
          <Field
            id="process-name"
            label={t('soaApp.process.form.name')}
            violation={nameViolation}
            show={showName}
          >
            <textarea
              id="process-name"
              className={inputClass(nameViolation, showName)}
              rows={2}
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setNameTouched(true);
              }}
              autoFocus
              placeholder={t('soaApp.process.form.namePlaceholder')}
              data-testid="process-name-input"
            />
          </Field>

          <div className="mb-3">
            <div className="form-label">{t('soaApp.process.form.tags')}</div>
            <div className={`tag-picker ${showTags && tagViolation ? 'is-invalid' : ''}`}>
              <div className="d-flex flex-wrap gap-1 flex-grow-1" data-testid="process-selected-tags">
                {selectedTags.length === 0 ? (
                  <span className="text-body-secondary small">{t('soaApp.process.form.noTags')}</span>
                ) : (
                  selectedTags.map((tag) => <TagBadge key={tag.id} tag={tag} />)
                )}
              </div>
              <button
                type="button"
                className="btn btn-sm btn-outline-primary text-nowrap"
                onClick={() => setTagModal(true)}
                data-testid="process-tags-open"
              >
                <IconTag className="me-1" />
                {t('soaApp.process.form.selectTags')}
              </button>
            </div>
            {showTags && tagViolation ? (
              <ViolationMessage violation={tagViolation} testId="process-tags-error" />
            ) : (
              <div className="form-text" data-testid="process-tags-help">
                {t('soaApp.process.form.tagsHelp')}
              </div>
            )}
          </div>

          <div className="form-check mb-3">
            <input
              id="process-rag"
              type="checkbox"
              className="form-check-input"
              checked={rag}
              onChange={(e) => setRag(e.target.checked)}
              data-testid="process-rag-checkbox"
            />
            <label htmlFor="process-rag" className="form-check-label">
              {t('soaApp.process.form.rag')}
            </label>
          </div>

          {rag && (
            <Field
              id="process-splitter"
              label={t('soaApp.process.form.splitter')}
              violation={null}
              show={false}
            >
              <select
                id="process-splitter"
                className="form-select"
                value={splitterId}
                onChange={(e) => setSplitterId(e.target.value)}
                data-testid="process-splitter-select"
              >
                <option value="">{t('soaApp.process.form.splitterDefault')}</option>
                {(splitters.data ?? []).map((s) => (
                  <option key={s.id} value={s.id} title={s.description ?? undefined}>
                    {s.name}
                  </option>
                ))}
              </select>
            </Field>
          )}
        </div>
        <div className="card-footer bg-transparent d-flex justify-content-between p-3">
          <Link to="/entity/process" className="btn btn-outline-secondary" data-testid="process-back">
            <IconArrowLeft className="me-1" />
            {t('global.common.back')}
          </Link>
          <button
            type="submit"
            className="btn btn-primary px-4"
            disabled={create.isPending}
            data-testid="process-save"
          >
            {create.isPending && (
              <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
            )}
            {t('global.common.save')}
          </button>
        </div>
      </form>

      {tagModal && (
        <TagSelectModal
          tags={tags.data ?? []}
          isLoading={tags.isPending}
          selectedIds={tagIds}
          onChange={setTagIds}
          onClose={() => {
            setTagModal(false);
            setTagsTouched(true);
          }}
          canManage={canManageTags}
          canCreateSystem={!!principal && isAdmin(principal)}
        />
      )}
    </div>
  );
}
