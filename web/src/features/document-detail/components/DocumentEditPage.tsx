/**
 * Document edit /entity/process/{processId}/documents/{id}/edit (spec 2 "Document detail and edit", section 5
 * "Document edit"): filename, path, documentType and process, all required ('entity.validation.required'),
 * checked with the API's own rules (domain/document-edit.ts) before PUT api/documents, and the server's
 * field errors shown under their fields. Only the filename can change: the path is where the stored file
 * lives, the type follows from the file's content and a document stays in its process, so those three are
 * shown read-only with the reason.
 */
import { useEffect, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { DocumentTypes } from '@domain';
import { documentEditViolations, type DocumentEditField } from '@domain/document-edit';
import { Field, inputClass } from '../../../components/FormField';
import { IconArrowLeft } from '../../../components/icons';
import { useForm } from '../../../components/useForm';
import { processQueries } from '../../processes/api';
import { documentDetailQueries, serverViolations, useUpdateDocument, type DocumentDetailDTO } from '../api';
import '../document-detail.css';
import { DelayedSpinner } from '../../../components/DelayedSpinner';

export function DocumentEditPage() {
  const { t } = useTranslation();
  const params = useParams();
  const processId = Number(params.processId);
  const documentId = Number(params.id);
  const doc = useQuery(documentDetailQueries.document(documentId));
  const wrongProcess = doc.data && doc.data.processId !== processId;

  return (
    <div className="container-xxl py-4 page document-detail-page" data-testid="document-edit">
      <div className="page-header d-flex flex-wrap align-items-center gap-2 mb-3">
        <Link
          to={`/entity/process/${processId}/documents/${documentId}`}
          className="btn btn-outline-secondary btn-sm"
          data-testid="document-edit-back"
        >
          <IconArrowLeft className="me-1" />
          {t('global.common.back')}
        </Link>
        <h1 className="h3 mb-0 me-auto">{t('soaApp.document.edit.title')}</h1>
      </div>
      {doc.isPending ? (
        <div className="p-5 text-center">
          <DelayedSpinner label={t('global.common.loading')} />
        </div>
      ) : doc.isError || wrongProcess ? (
        <div className="alert alert-danger" data-testid="document-detail-error">
          {t('soaApp.document.detail.notFound')}
        </div>
      ) : (
        <EditForm doc={doc.data} />
      )}
    </div>
  );
}

function EditForm({ doc }: { doc: DocumentDetailDTO }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const processes = useQuery(processQueries.list());
  const update = useUpdateDocument();
  const form = useForm({
    filename: doc.filename,
    path: doc.path,
    documentType: doc.documentType as string,
    processId: String(doc.processId),
  });
  const { values } = form;
  const input = {
    filename: values.filename,
    path: values.path,
    documentType: values.documentType,
    processId: values.processId === '' ? null : Number(values.processId),
  };
  const local = new Map(documentEditViolations(input, doc).map((v) => [v.field, v.violation]));
  const server = serverViolations(update.error);
  // A server error belongs to the value it was given for: typing again clears it.
  useEffect(() => {
    if (update.isError) update.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [values.filename]);
  const violation = (f: DocumentEditField) => local.get(f) ?? server?.[f] ?? null;
  const show = (f: DocumentEditField) => form.show(f) || !!server?.[f];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    form.setSubmitted(true);
    if (local.size > 0) return;
    update.mutate(
      { id: doc.id, ...input, filename: values.filename.trim() },
      { onSuccess: () => navigate(`/entity/process/${doc.processId}/documents/${doc.id}`) },
    );
  };
  const processOptions = processes.data ?? [];

  return (
    <form className="card shadow-sm border-0" onSubmit={submit} noValidate data-testid="document-edit-form">
      <div className="card-body">
        <Field
          id="filename"
          label={<RequiredLabel text={t('soaApp.document.field.filename')} />}
          violation={violation('filename')}
          show={show('filename')}
        >
          <input
            {...form.text('filename')}
            className={inputClass(violation('filename'), show('filename'))}
            maxLength={300}
            autoComplete="off"
            data-testid="document-edit-filename"
          />
        </Field>
        <Field
          id="path"
          label={<RequiredLabel text={t('soaApp.document.field.path')} />}
          violation={violation('path')}
          show={show('path')}
          help={t('soaApp.document.edit.pathHelp')}
        >
          <input
            {...form.text('path')}
            className={inputClass(violation('path'), show('path'), 'form-control bg-body-tertiary')}
            readOnly
            data-testid="document-edit-path"
          />
        </Field>
        <div className="row g-3">
          <div className="col-sm-6">
            <Field
              id="documentType"
              label={<RequiredLabel text={t('soaApp.document.field.documentType')} />}
              violation={violation('documentType')}
              show={show('documentType')}
              help={t('soaApp.document.edit.typeHelp')}
              className="mb-0"
            >
              <select
                id="documentType"
                className={inputClass(violation('documentType'), show('documentType'), 'form-select')}
                value={values.documentType}
                onChange={(e) => form.set('documentType', e.target.value)}
                disabled
                data-testid="document-edit-type"
              >
                {DocumentTypes.map((type) => (
                  <option key={type} value={type}>
                    {t(`soaApp.document.type.${type}`)}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <div className="col-sm-6">
            <Field
              id="processId"
              label={<RequiredLabel text={t('soaApp.document.field.process')} />}
              violation={violation('processId')}
              show={show('processId')}
              help={t('soaApp.document.edit.processHelp')}
              className="mb-0"
            >
              <select
                id="processId"
                className={inputClass(violation('processId'), show('processId'), 'form-select')}
                value={values.processId}
                onChange={(e) => form.set('processId', e.target.value)}
                disabled
                data-testid="document-edit-process"
              >
                {!processOptions.some((p) => p.id === doc.processId) && (
                  <option value={doc.processId}>{doc.processId}</option>
                )}
                {processOptions.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </Field>
          </div>
        </div>
      </div>
      <div className="card-footer bg-transparent d-flex gap-2 justify-content-end">
        <Link
          to={`/entity/process/${doc.processId}/documents/${doc.id}`}
          className="btn btn-outline-secondary"
          data-testid="document-edit-cancel"
        >
          {t('global.common.cancel')}
        </Link>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={update.isPending}
          data-testid="document-edit-save"
        >
          {t('global.common.save')}
        </button>
      </div>
    </form>
  );
}

function RequiredLabel({ text }: { text: string }) {
  return (
    <>
      {text}{' '}
      <span className="text-danger" aria-hidden="true">
        *
      </span>
    </>
  );
}
