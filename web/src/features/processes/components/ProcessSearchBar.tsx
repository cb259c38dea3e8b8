/** Search by name (text) or by tag (select); the mode select switches between the two and clears the other input. */
import { useTranslation } from 'react-i18next';
import type { ProcessTagDTO } from '@domain';
import { IconSearch, IconTag } from '../../../components/icons';
import type { ProcessSearch } from '../filter';

export function ProcessSearchBar({
  search,
  onChange,
  tags,
}: {
  search: ProcessSearch;
  onChange: (next: ProcessSearch) => void;
  tags: readonly ProcessTagDTO[];
}) {
  const { t } = useTranslation();
  const byName = search.mode === 'name';
  const system = tags.filter((tag) => tag.predefined);
  const user = tags.filter((tag) => !tag.predefined);

  return (
    <div className="input-group process-search" role="search">
      <span className="input-group-text bg-white">{byName ? <IconSearch /> : <IconTag />}</span>
      <select
        className="form-select search-mode"
        value={search.mode}
        onChange={(e) => onChange({ mode: e.target.value === 'tag' ? 'tag' : 'name', text: '', tagId: null })}
        aria-label={t('soaApp.process.search.toggle')}
        data-testid="process-search-mode"
      >
        <option value="name">{t('soaApp.process.search.byName')}</option>
        <option value="tag">{t('soaApp.process.search.byTag')}</option>
      </select>
      {byName ? (
        <input
          type="search"
          className="form-control"
          value={search.text}
          onChange={(e) => onChange({ ...search, text: e.target.value })}
          placeholder={t('soaApp.process.search.namePlaceholder')}
          aria-label={t('soaApp.process.search.namePlaceholder')}
          data-testid="process-search-input"
        />
      ) : (
        <select
          className="form-select"
          value={search.tagId ?? ''}
          onChange={(e) => onChange({ ...search, tagId: e.target.value ? Number(e.target.value) : null })}
          aria-label={t('soaApp.process.search.tagPlaceholder')}
          data-testid="process-search-input"
        >
          <option value="">{t('soaApp.process.search.tagPlaceholder')}</option>
          {system.length > 0 && (
            <optgroup label={t('soaApp.processTag.selectModal.systemTags')}>
              {system.map((tag) => (
                <option key={tag.id} value={tag.id}>
                  {tag.name}
                </option>
              ))}
            </optgroup>
          )}
          {user.length > 0 && (
            <optgroup label={t('soaApp.processTag.selectModal.userTags')}>
              {user.map((tag) => (
                <option key={tag.id} value={tag.id}>
                  {tag.name}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      )}
    </div>
  );
}
