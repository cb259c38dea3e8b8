import {
  availableWildcards,
  extractWildcards,
  findUnknownWildcards,
  modesForTrigger,
  nodeWildcards,
  RAG_DOCUMENTS_WILDCARD,
  RAG_INPUT_WILDCARD,
  WILDCARD_CATALOGUE,
  type WildcardSourceNode,
} from './wildcards';

const values = (list: readonly { value: string }[]) => list.map((w) => w.value);

const previous: WildcardSourceNode[] = [
  { id: 7, name: 'Summarise', activityType: 'LLM_PROMPT' },
  { id: 8, name: 'Upload', activityType: 'SEND_TO_GOOGLE_DRIVE' },
  { id: 9, name: 'Archive', activityType: 'SEND_TO_SFTP' },
  { id: 10, name: 'Webhook', activityType: 'SEND_REQUEST' },
  {
    id: 11,
    name: 'Kind',
    activityType: 'CLF',
    classifierTypes: [
      { id: 3, name: 'Invoice' },
      { id: 4, name: 'Letter' },
    ],
  },
  { id: 12, name: 'Parse', activityType: 'FILE_PARSER' },
];

describe('wildcard catalogue', () => {
  it('holds the document, process, RAG and utility wildcards of the spec with their categories and modes', () => {
    expect(values(WILDCARD_CATALOGUE)).toEqual([
      '${document.id}',
      '${document.filename}',
      '${document.content}',
      '${document.clfTags}',
      '${document.spanTags}',
      '${process.id}',
      '${process.name}',
      '${process.rag.input}',
      '${process.rag.documents}',
      '${util.datetime}',
      '${util.date}',
      '${util.timestamp}',
    ]);
    const byValue = Object.fromEntries(WILDCARD_CATALOGUE.map((w) => [w.value, w]));
    expect(byValue['${document.content}']).toMatchObject({ category: 'DOCUMENT', mode: 'INDIVIDUAL' });
    expect(byValue['${process.name}']).toMatchObject({ category: 'PROCESS', mode: 'UNIVERSAL' });
    expect(byValue['${util.timestamp}']).toMatchObject({ category: 'UTILS', mode: 'UNIVERSAL' });
    for (const w of WILDCARD_CATALOGUE) expect(w.label).not.toBe('');
  });
});

describe('per-node wildcards', () => {
  it('are generated from the previous nodes by type; other types give none', () => {
    expect(values(nodeWildcards(previous))).toEqual([
      '${node.7.llmresponse}',
      '${node.8.googledriveresult.fileid}',
      '${node.8.googledriveresult.url}',
      '${node.9.sftpresult.fileaddress}',
      '${node.10.sendrequestresult.body}',
      '${node.11.clftagtypes.selected}',
      '${node.11.clftagtypes.3.isselected}',
      '${node.11.clftagtypes.4.isselected}',
    ]);
  });

  it('name the node in the label and use the CLF_TAGS category for classifier labels', () => {
    const [llm] = nodeWildcards([previous[0]]);
    expect(llm).toEqual({
      value: '${node.7.llmresponse}',
      label: 'Summarise: LLM response',
      category: 'NODE',
      mode: 'INDIVIDUAL',
      source: { kind: 'llmResponse', nodeName: 'Summarise' },
    });
    const clf = nodeWildcards([previous[4]]);
    expect(clf.map((w) => w.category)).toEqual(['CLF_TAGS', 'CLF_TAGS', 'CLF_TAGS']);
    expect(clf[1].label).toContain('Invoice');
    expect(clf[1].source).toEqual({
      kind: 'labelSelected',
      nodeName: previous[4].name,
      labelName: 'Invoice',
    });
  });
});

describe('availability', () => {
  it('offers individual and universal wildcards to a node with trigger ALWAYS (or none)', () => {
    expect(modesForTrigger('ALWAYS')).toEqual(['UNIVERSAL', 'INDIVIDUAL']);
    expect(modesForTrigger(undefined)).toEqual(['UNIVERSAL', 'INDIVIDUAL']);
    const list = values(
      availableWildcards({ context: 'node', triggerType: 'ALWAYS', previousNodes: previous }),
    );
    expect(list).toEqual(expect.arrayContaining(['${document.content}', '${process.id}', '${util.date}']));
    expect(list).toEqual(expect.arrayContaining(values(nodeWildcards(previous))));
    expect(list).not.toContain(RAG_INPUT_WILDCARD);
  });

  it('offers aggregated and universal wildcards to CRON and THRESHOLD nodes', () => {
    for (const triggerType of ['CRON', 'THRESHOLD'] as const) {
      expect(modesForTrigger(triggerType)).toEqual(['UNIVERSAL', 'AGGREGATED']);
      const list = availableWildcards({ context: 'node', triggerType, previousNodes: previous });
      expect(list.every((w) => w.mode === 'UNIVERSAL' || w.mode === 'AGGREGATED')).toBe(true);
      const offered = values(list);
      expect(offered).toEqual(
        expect.arrayContaining([
          '${document.id}',
          '${document.content}',
          '${process.name}',
          '${util.timestamp}',
          '${node.7.llmresponse}',
          '${node.11.clftagtypes.selected}',
        ]),
      );
      expect(list.find((w) => w.value === '${document.id}')?.mode).toBe('AGGREGATED');
      // A yes/no of one document means nothing over many.
      expect(offered.some((v) => v.endsWith('.isselected}'))).toBe(false);
      // A list of many documents' values is no file name.
      const filename = values(
        availableWildcards({ context: 'filename', triggerType, previousNodes: previous }),
      );
      expect(filename).toEqual([
        '${process.id}',
        '${process.name}',
        '${util.datetime}',
        '${util.date}',
        '${util.timestamp}',
      ]);
    }
  });

  it('offers the process.rag wildcards in the RAG template only, without document or node data', () => {
    const rag = values(availableWildcards({ context: 'rag', previousNodes: previous }));
    expect(rag).toEqual(
      expect.arrayContaining([RAG_INPUT_WILDCARD, RAG_DOCUMENTS_WILDCARD, '${process.name}']),
    );
    expect(rag.some((v) => v.startsWith('${document.') || v.startsWith('${node.'))).toBe(false);
    for (const context of ['node', 'filename', 'other'] as const) {
      const list = values(availableWildcards({ context, previousNodes: previous }));
      expect(list).not.toContain(RAG_INPUT_WILDCARD);
      expect(list).not.toContain(RAG_DOCUMENTS_WILDCARD);
    }
  });

  it('keeps long or multi-line values out of file names', () => {
    const list = values(availableWildcards({ context: 'filename', previousNodes: previous }));
    expect(list).toEqual(
      expect.arrayContaining([
        '${document.id}',
        '${document.filename}',
        '${util.timestamp}',
        '${node.8.googledriveresult.fileid}',
        '${node.11.clftagtypes.selected}',
      ]),
    );
    for (const long of ['${document.content}', '${node.7.llmresponse}', '${node.10.sendrequestresult.body}'])
      expect(list).not.toContain(long);
  });
});

describe('unknown wildcards', () => {
  it('extracts each ${...} token once, in order', () => {
    expect(
      extractWildcards('Hi ${document.filename}, ${process.name} ${document.filename} $notone {x}'),
    ).toEqual(['${document.filename}', '${process.name}']);
    expect(extractWildcards(null)).toEqual([]);
  });

  it('returns the tokens that are not available', () => {
    const available = availableWildcards({ context: 'node', triggerType: 'CRON', previousNodes: previous });
    expect(
      findUnknownWildcards(
        'At ${util.date}: ${document.content} and ${node.99.llmresponse} ${node.11.clftagtypes.3.isselected} ${bogus}',
        available,
      ),
    ).toEqual(['${node.99.llmresponse}', '${node.11.clftagtypes.3.isselected}', '${bogus}']);
    expect(findUnknownWildcards('${a} ${b}', ['${a}'])).toEqual(['${b}']);
    expect(findUnknownWildcards('plain text', [])).toEqual([]);
  });
});
