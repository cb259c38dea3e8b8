import type { PredicateDTO } from '@domain/graph-types';
import {
  EMPTY_LABEL,
  canSave,
  draftOf,
  equalityEnabled,
  newComplexDraft,
  newSimpleDraft,
  offersEmptyLabel,
  toInput,
  withNode,
} from './predicateDraft';

const dto = (over: Partial<PredicateDTO>): PredicateDTO => ({
  id: 1,
  edgeId: 7,
  parentId: null,
  predicateType: 'CLF',
  logicalOperator: null,
  nodeId: 3,
  nodeName: 'Classify',
  equal: true,
  clfTypeId: 11,
  clfTypeName: 'Invoice',
  nerTagTypeId: null,
  nerTagTypeName: null,
  predicates: [],
  ...over,
});

describe('predicate draft', () => {
  it('saves a complex predicate only once a logical operator is chosen', () => {
    const draft = newComplexDraft(null);
    expect(canSave(draft)).toBe(false);
    expect(canSave({ ...draft, logicalOperator: 'OR' })).toBe(true);
  });

  it('saves a simple predicate only with node, label and equality', () => {
    let draft = withNode(newSimpleDraft(null), 3, 'CLF');
    expect(canSave(draft)).toBe(false);
    draft = { ...draft, label: 11 };
    expect(canSave(draft)).toBe(false);
    draft = { ...draft, equal: false };
    expect(canSave(draft)).toBe(true);
  });

  it('enables the equality picker only once the type is CLF or NER', () => {
    expect(equalityEnabled(newSimpleDraft(null))).toBe(false);
    expect(equalityEnabled(withNode(newSimpleDraft(null), 3, 'SPAN'))).toBe(true);
    expect(equalityEnabled(newComplexDraft(null))).toBe(false);
  });

  it('resets the label and switches the type when the node changes', () => {
    const draft = { ...withNode(newSimpleDraft(null), 3, 'CLF'), label: 11, equal: true };
    expect(draft.predicateType).toBe('CLF');
    const next = withNode(draft, 4, 'LEXICON');
    expect(next).toMatchObject({ nodeId: 4, predicateType: 'NER', label: null, equal: true });
  });

  it('offers the empty label for classifier nodes that are not mandatory', () => {
    expect(offersEmptyLabel({ activityType: 'CLF', mandatory: false })).toBe(true);
    expect(offersEmptyLabel({ activityType: 'CLF', mandatory: true })).toBe(false);
    expect(offersEmptyLabel({ activityType: 'SPAN', mandatory: false })).toBe(false);
  });

  it('turns drafts into request bodies', () => {
    expect(toInput({ ...newComplexDraft(5), logicalOperator: 'AND' }, 7)).toEqual({
      id: undefined,
      edgeId: 7,
      parentId: 5,
      predicateType: 'COMPLEX',
      logicalOperator: 'AND',
    });
    expect(toInput({ ...draftOf(dto({})), label: EMPTY_LABEL }, 7)).toMatchObject({
      id: 1,
      predicateType: 'CLF',
      nodeId: 3,
      clfTypeId: null,
      nerTagTypeId: null,
    });
    const ner = draftOf(dto({ predicateType: 'NER', clfTypeId: null, nerTagTypeId: 21, equal: false }));
    expect(toInput(ner, 7)).toMatchObject({
      predicateType: 'NER',
      equal: false,
      nerTagTypeId: 21,
      clfTypeId: null,
    });
  });

  it('reads an existing classifier predicate without a label as the empty option', () => {
    expect(draftOf(dto({ clfTypeId: null })).label).toBe(EMPTY_LABEL);
  });
});
