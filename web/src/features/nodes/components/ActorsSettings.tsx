/**
 * File parser: the process's actors (speakers). A count of at least one; lowering it removes the
 * highest-numbered speakers. The fixed background speaker "artifact" is shown read-only. Saved with
 * PUT api/process/{id}/process-actors/.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { actorNameRule } from '@domain';
import { ViolationMessage, inputClass } from '../../../components/FormField';
import { processQueries } from '../../processes/api';
import { MIN_ACTORS, resizeActors, sortActors, type ActorRow } from '../actors';
import { useSaveActors } from '../api';

export function ActorsSettings({ processId, readOnly }: { processId: number; readOnly: boolean }) {
  const { t } = useTranslation();
  const process = useQuery(processQueries.detail(processId));
  if (!process.data) {
    return <div className="small text-body-secondary">{t('global.common.loading')}</div>;
  }
  return (
    <ActorsForm
      key={process.dataUpdatedAt}
      processId={processId}
      initial={sortActors(process.data.actors)}
      readOnly={readOnly}
    />
  );
}

function ActorsForm({
  processId,
  initial,
  readOnly,
}: {
  processId: number;
  initial: ActorRow[];
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const save = useSaveActors(processId);
  const [actors, setActors] = useState<ActorRow[]>(initial);
  const [count, setCount] = useState<string>(String(initial.length));
  const defaultName = (n: number) => t('soaApp.nodePanel.actors.defaultName', { n });
  const countInvalid = !/^\d+$/.test(count) || Number(count) < MIN_ACTORS;
  const nameViolations = actors.map((a) => actorNameRule(a.name));
  const invalid = countInvalid || nameViolations.some(Boolean);
  const dirty = JSON.stringify(actors) !== JSON.stringify(initial);

  return (
    <div data-testid="actors-settings">
      <div className="mb-3">
        <label htmlFor="node-actors-count" className="form-label">
          {t('soaApp.nodePanel.actors.count')}
        </label>
        <input
          id="node-actors-count"
          type="number"
          min={MIN_ACTORS}
          step={1}
          className={inputClass(countInvalid ? { code: 'Size', key: 'entity.validation.min' } : null, true)}
          value={count}
          disabled={readOnly}
          onChange={(e) => {
            setCount(e.target.value);
            const n = Number(e.target.value);
            if (e.target.value !== '' && Number.isInteger(n) && n >= MIN_ACTORS)
              setActors((list) => resizeActors(list, n, defaultName));
          }}
          data-testid="actors-count"
        />
        {countInvalid && (
          <ViolationMessage
            violation={{ code: 'Size', key: 'entity.validation.min', params: { min: MIN_ACTORS } }}
          />
        )}
      </div>
      <table className="table table-sm node-table mb-2">
        <thead>
          <tr>
            <th>{t('soaApp.nodePanel.actors.actor')}</th>
            <th>{t('soaApp.nodePanel.actors.name')}</th>
          </tr>
        </thead>
        <tbody>
          {actors.map((a, i) => (
            <tr key={a.actor} data-testid="actor-row">
              <td className="text-nowrap">{a.actor}</td>
              <td>
                <input
                  className={`form-control form-control-sm ${nameViolations[i] ? 'is-invalid' : ''}`}
                  value={a.name}
                  disabled={readOnly}
                  aria-label={t('soaApp.nodePanel.actors.name')}
                  onChange={(e) =>
                    setActors((list) => list.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))
                  }
                  data-testid="actor-name"
                />
                {nameViolations[i] && <ViolationMessage violation={nameViolations[i]!} />}
              </td>
            </tr>
          ))}
          <tr className="text-body-secondary">
            <td className="text-nowrap">artifact</td>
            <td>{t('soaApp.nodePanel.actors.artifact')}</td>
          </tr>
        </tbody>
      </table>
      <button
        type="button"
        className="btn btn-sm btn-primary"
        disabled={readOnly || invalid || !dirty || save.isPending}
        onClick={() => save.mutate(actors.map((a) => ({ processId, actor: a.actor, name: a.name.trim() })))}
        data-testid="actors-save"
      >
        {t('soaApp.nodePanel.actors.save')}
      </button>
    </div>
  );
}
