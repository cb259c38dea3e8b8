/**
 * The document list's search form as a request (spec 2 section 7 `_search/document`; domain/document-search.ts):
 * the inputs of the three modes and the body built from the chosen mode's inputs only (spec 1 section 3:
 * changing the mode clears the other inputs).
 */
import { searchValues, type DocumentSearchBody, type SearchMode } from '@domain/document-search';

/** One NER tag type row of the form: the type and its content values, comma-separated as typed. */
export interface NerTagRow {
  typeId: number | null;
  values: string;
}

export interface SearchInputs {
  mode: SearchMode;
  content: string;
  nerTags: NerTagRow[];
  classifierTypeIds: number[];
}

export const emptyInputs = (mode: SearchMode = 'BY_CONTENT'): SearchInputs => ({
  mode,
  content: '',
  nerTags: [{ typeId: null, values: '' }],
  classifierTypeIds: [],
});

/** Values typed as "Anna, Jan Nowak": split on commas, trimmed, blanks dropped. */
export const splitValues = (typed: string): string[] => searchValues(typed.split(','));

/** The request body of the inputs: only the mode's own criterion; rows without a type are left out. */
export function searchBody(processId: number, inputs: SearchInputs): DocumentSearchBody {
  switch (inputs.mode) {
    case 'BY_CONTENT':
      return { processId, discriminator: 'BY_CONTENT', content: inputs.content.trim() };
    case 'BY_NER_TAG': {
      const map: Record<string, string[]> = {};
      for (const row of inputs.nerTags) {
        if (row.typeId === null) continue;
        map[row.typeId] = [...new Set([...(map[row.typeId] ?? []), ...splitValues(row.values)])];
      }
      return { processId, discriminator: 'BY_NER_TAG', tagTypeContentMap: map };
    }
    case 'BY_CLASSIFIER_TAG':
      return { processId, discriminator: 'BY_CLASSIFIER_TAG', typeList: [...inputs.classifierTypeIds] };
  }
}
