/** Changelog (spec 3 "Changelog page"; issue 15 section 4): the spec's versions v1.11 to v0.10, then this product's releases. */
import { useTranslation } from 'react-i18next';
import { OWN_RELEASES, SPEC_HISTORY, type Release, type Text } from './changelog';

function Section({
  title,
  items,
  lang,
  testId,
}: {
  title: string;
  items: Text[];
  lang: 'en' | 'pl';
  testId: string;
}) {
  if (!items.length) return null;
  return (
    <>
      <h3 className="h6 text-uppercase text-body-secondary mt-3 mb-2">{title}</h3>
      <ul className="mb-0" data-testid={testId}>
        {items.map((item) => (
          <li key={item.en}>{item[lang]}</li>
        ))}
      </ul>
    </>
  );
}

function ReleaseCard({ release, lang }: { release: Release; lang: 'en' | 'pl' }) {
  const { t } = useTranslation();
  return (
    <article
      className="card shadow-sm border-0 mb-3"
      data-testid="changelog-release"
      data-version={release.version}
    >
      <div className="card-body">
        <h2 className="h5 mb-0">
          {release.version}
          {release.date && <small className="text-body-secondary ms-2 fw-normal">{release.date}</small>}
        </h2>
        <Section
          title={t('changelog.features')}
          items={release.features}
          lang={lang}
          testId="changelog-features"
        />
        <Section
          title={t('changelog.bugfixes')}
          items={release.bugfixes}
          lang={lang}
          testId="changelog-bugfixes"
        />
      </div>
    </article>
  );
}

export function ChangelogPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language?.startsWith('pl') ? 'pl' : 'en';
  return (
    <div className="container py-4" style={{ maxWidth: 880 }} data-testid="changelog-page">
      <h1 className="h3 mb-4">{t('changelog.title')}</h1>
      <h2 className="h4 mb-3">{t('changelog.history')}</h2>
      {SPEC_HISTORY.map((r) => (
        <ReleaseCard key={r.version} release={r} lang={lang} />
      ))}
      <h2 className="h4 mt-4 mb-3">{t('changelog.own')}</h2>
      {OWN_RELEASES.map((r) => (
        <ReleaseCard key={r.version} release={r} lang={lang} />
      ))}
    </div>
  );
}
