/**
 * The changelog (spec 3 "Changelog page"; issue 15 section 4), the one data file of the page: the
 * specification's history v0.10 to v1.11, then this product's own releases (the order issue 15 asks for),
 * newest first within each part.
 * Every entry is written in English and Polish; the page shows the current locale's.
 *
 * The spec names the range (v0.10 to v1.11) and the highlights of that history without saying which version
 * brought which; the split of the highlights over the versions below is ours, in the order the features
 * build on each other (triggers before action nodes, the sidebar before its resizing, and so on).
 */
export interface Text {
  en: string;
  pl: string;
}

export interface Release {
  version: string;
  /** ISO date, for this product's own releases */
  date?: string;
  features: Text[];
  bugfixes: Text[];
}

/** This product's releases: what each delivery made usable (docs/status.md has the detail). */
export const OWN_RELEASES: Release[] = [
  {
    version: '2026.11.24',
    date: '2026-11-24',
    features: [
      {
        en: 'Text workspace: labelling, classifying, editing, the step sidebar with Start, Complete and Accept, tools panels.',
        pl: 'Obszar roboczy tekstu: etykietowanie, klasyfikacja, edycja, panel kroków z akcjami Rozpocznij, Zakończ i Akceptuj, panele narzędzi.',
      },
      {
        en: 'Relations between tags drawn as arcs, relation graphs, issues with comment threads and the issues dashboard.',
        pl: 'Relacje między tagami rysowane jako łuki, grafy relacji, zgłoszenia z wątkami komentarzy i pulpit zgłoszeń.',
      },
      {
        en: 'Documents dashboard, document list with content, NER tag and classifier searches, upload page, document detail and edit, fast at a million documents.',
        pl: 'Pulpit dokumentów, lista dokumentów z wyszukiwaniem po treści, tagach NER i klasyfikatorach, strona przesyłania, szczegóły i edycja dokumentu, szybkie przy milionie dokumentów.',
      },
      {
        en: 'Access tokens (API keys) on the account page.',
        pl: 'Tokeny dostępu (klucze API) na stronie konta.',
      },
      {
        en: 'Security review: access declared for every route, revocable sessions, sign-in throttling, encrypted credentials.',
        pl: 'Przegląd bezpieczeństwa: dostęp zadeklarowany dla każdej trasy, odwoływalne sesje, ograniczanie logowań, szyfrowane dane uwierzytelniające.',
      },
    ],
    bugfixes: [
      {
        en: 'After Complete the step sidebar shows the next step instead of the old tab.',
        pl: 'Po zakończeniu kroku panel kroków pokazuje następny krok zamiast starej zakładki.',
      },
      {
        en: 'The session that changes its password keeps its exact expiry.',
        pl: 'Sesja, która zmienia hasło, zachowuje dokładny czas wygaśnięcia.',
      },
    ],
  },
  {
    version: '2026.11.22',
    date: '2026-11-22',
    features: [
      {
        en: 'Processes drawn as graphs of typed nodes, with node panels, labels, matching rules and relation types.',
        pl: 'Procesy rysowane jako grafy węzłów różnych typów, z panelami węzłów, etykietami, regułami dopasowania i typami relacji.',
      },
      {
        en: 'Each document walks its process as a durable Temporal workflow; file parser with OCR and speech recognition.',
        pl: 'Każdy dokument przechodzi przez proces jako trwały przepływ Temporal; parser plików z OCR i rozpoznawaniem mowy.',
      },
      {
        en: 'Integrations: mail, requests, SFTP, cloud drive, LLM prompts, lexicons, inter-process send and receive, upload pollers.',
        pl: 'Integracje: poczta, żądania, SFTP, dysk w chmurze, zapytania LLM, leksykony, wysyłanie i odbiór między procesami, pobieranie plików.',
      },
    ],
    bugfixes: [],
  },
];

/** The specification's history (spec 3 "Changelog page"), newest first. */
export const SPEC_HISTORY: Release[] = [
  {
    version: 'v1.11',
    features: [
      {
        en: 'Tag type names may contain a dot.',
        pl: 'Nazwy typów tagów mogą zawierać kropkę.',
      },
    ],
    bugfixes: [
      {
        en: 'A completed step stays completed even if the following automatic step fails.',
        pl: 'Zakończony krok pozostaje zakończony, nawet jeśli następny krok automatyczny się nie powiedzie.',
      },
    ],
  },
  {
    version: 'v1.10',
    features: [
      {
        en: 'Several documents can be deleted at once from the document list.',
        pl: 'Z listy dokumentów można usunąć kilka dokumentów naraz.',
      },
    ],
    bugfixes: [],
  },
  {
    version: 'v1.9',
    features: [
      {
        en: 'Page size selection (10, 20 or 50) in the paged tables.',
        pl: 'Wybór rozmiaru strony (10, 20 lub 50) w tabelach ze stronicowaniem.',
      },
    ],
    bugfixes: [
      {
        en: 'Tag type names are limited to 100 characters with the special characters - _ , ( ) /.',
        pl: 'Nazwy typów tagów są ograniczone do 100 znaków ze znakami specjalnymi - _ , ( ) /.',
      },
    ],
  },
  {
    version: 'v1.8',
    features: [
      {
        en: 'A process or node admin can rerun file parser steps in WAITING or ERROR status.',
        pl: 'Administrator procesu lub węzła może ponownie uruchomić kroki parsera plików w statusie WAITING lub ERROR.',
      },
    ],
    bugfixes: [],
  },
  {
    version: 'v1.7',
    features: [
      {
        en: 'RAG template customisation and a choice of text splitter per process.',
        pl: 'Dostosowanie szablonu RAG i wybór dzielnika tekstu dla procesu.',
      },
    ],
    bugfixes: [],
  },
  {
    version: 'v1.6',
    features: [
      {
        en: 'LLM classification.',
        pl: 'Klasyfikacja za pomocą LLM.',
      },
    ],
    bugfixes: [],
  },
  {
    version: 'v1.5',
    features: [
      {
        en: 'Action nodes replace triggers, with a condition of cron, threshold or always.',
        pl: 'Węzły akcji zastępują wyzwalacze, z warunkiem cron, próg lub zawsze.',
      },
    ],
    bugfixes: [],
  },
  {
    version: 'v1.4',
    features: [
      {
        en: 'Batch editing of matching rules.',
        pl: 'Wsadowa edycja reguł dopasowania.',
      },
    ],
    bugfixes: [],
  },
  {
    version: 'v1.3',
    features: [
      {
        en: 'The tools sidebar can be resized.',
        pl: 'Rozmiar panelu narzędzi można zmieniać.',
      },
    ],
    bugfixes: [],
  },
  {
    version: 'v1.2',
    features: [
      {
        en: 'Sphere tags: a system admin manages them, a sphere admin assigns them, users search by them.',
        pl: 'Tagi sfer: administrator systemu nimi zarządza, administrator sfery je przypisuje, użytkownicy po nich wyszukują.',
      },
    ],
    bugfixes: [],
  },
  {
    version: 'v1.1',
    features: [
      {
        en: 'New wildcards: the classifier label list, the label-used flag, the cloud-drive file URL and ID.',
        pl: 'Nowe symbole wieloznaczne: lista etykiet klasyfikatora, znacznik użycia etykiety, adres URL i ID pliku na dysku w chmurze.',
      },
    ],
    bugfixes: [],
  },
  {
    version: 'v1.0',
    features: [
      {
        en: 'SFTP upload can copy the file to another SFTP server and delete it afterwards.',
        pl: 'Przesyłanie przez SFTP może skopiować plik na inny serwer SFTP, a następnie go usunąć.',
      },
    ],
    bugfixes: [],
  },
  {
    version: 'v0.10',
    features: [
      {
        en: 'The first version of this history: processes, documents and annotation steps in the browser.',
        pl: 'Pierwsza wersja tej historii: procesy, dokumenty i kroki adnotacji w przeglądarce.',
      },
    ],
    bugfixes: [],
  },
];
