import {
  renderTemplate,
  unrenderableWildcards,
  WildcardRenderError,
  type RenderData,
} from './wildcard-render';

const data: RenderData = {
  process: { id: 7, name: 'Invoices' },
  now: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)),
  document: {
    id: 42,
    filename: 'a b.txt',
    content: 'Hello <world>',
    clfTags: ['Urgent', 'Invoice'],
    spanTags: [
      { label: 'Person', text: 'Ann' },
      { label: 'City', text: 'Oslo' },
    ],
  },
  nodes: {
    3: { sendRequestBody: '{"ok":true}', classifierTypes: { selected: [{ id: 11, name: 'Urgent' }] } },
    4: { driveFileId: 'f1', driveFileUrl: 'https://d/f1', sftpFileAddress: 'sftp://h/x', llmResponse: 'hi' },
  },
};

describe('renderTemplate', () => {
  it('renders document, process and utility wildcards', () => {
    expect(
      renderTemplate(
        '${document.id} ${document.filename} ${process.id}/${process.name} ${util.date} ${util.datetime} ${util.timestamp}',
        data,
      ),
    ).toBe('42 a b.txt 7/Invoices 2026-01-02 2026-01-02 03:04:05 1767323045006');
    expect(renderTemplate('${document.clfTags}|${document.spanTags}', data)).toBe(
      'Urgent, Invoice|Person: Ann\nCity: Oslo',
    );
  });

  it('renders the RAG wildcards only in a RAG rendering', () => {
    const template = 'Q ${process.rag.input} D ${process.rag.documents}';
    expect(unrenderableWildcards(template, data)).toEqual([
      '${process.rag.input}',
      '${process.rag.documents}',
    ]);
    expect(renderTemplate(template, { ...data, rag: { input: 'why?', documents: 'doc 1' } })).toBe(
      'Q why? D doc 1',
    );
  });

  it('renders per-node results, and an empty text where a node left none', () => {
    expect(
      renderTemplate(
        '${node.3.sendrequestresult.body} ${node.3.clftagtypes.selected} ${node.3.clftagtypes.11.isselected} ${node.3.clftagtypes.12.isselected}',
        data,
      ),
    ).toBe('{"ok":true} Urgent true false');
    expect(
      renderTemplate(
        '${node.4.googledriveresult.fileid} ${node.4.googledriveresult.url} ${node.4.sftpresult.fileaddress} ${node.4.llmresponse}',
        data,
      ),
    ).toBe('f1 https://d/f1 sftp://h/x hi');
    expect(renderTemplate('[${node.9.sendrequestresult.body}]', data)).toBe('[]');
  });

  it('escapes values for URLs, HTML and headers but keeps the template text', () => {
    expect(renderTemplate('http://x/?f=${document.filename}&a=b c', data, 'url')).toBe(
      'http://x/?f=a%20b.txt&a=b c',
    );
    expect(renderTemplate('<p>${document.content}</p>', data, 'html')).toBe('<p>Hello &lt;world&gt;</p>');
    expect(renderTemplate('${document.spanTags}', data, 'header')).toBe('Person: Ann City: Oslo');
  });

  it('refuses unknown tokens and document wildcards without a document, naming them all', () => {
    expect(() => renderTemplate('${document.nope} ${foo}', data)).toThrow(WildcardRenderError);
    expect(() => renderTemplate('${document.nope} ${foo}', data)).toThrow(
      'Unknown or unavailable wildcards: ${document.nope}, ${foo}',
    );
    const noDoc = { ...data, document: undefined };
    expect(unrenderableWildcards('${process.name} ${document.id} ${node.3.llmresponse}', noDoc)).toEqual([
      '${document.id}',
      '${node.3.llmresponse}',
    ]);
    expect(renderTemplate('${process.name} $notatoken {x}', noDoc)).toBe('Invoices $notatoken {x}');
  });

  it('renders null and empty templates as empty text', () => {
    expect(renderTemplate(null, data)).toBe('');
    expect(renderTemplate('', data)).toBe('');
  });

  it('renders the aggregate of collected documents: short values listed, long texts apart', () => {
    const doc = (id: number, content: string) => ({
      id,
      filename: `d${id}.txt`,
      content,
      clfTags: [],
      spanTags: [],
    });
    const aggregated: RenderData = {
      process: data.process,
      now: data.now,
      aggregate: [
        { document: doc(1, 'one'), nodes: { 5: { llmResponse: 'r1' } } },
        { document: doc(2, 'two') },
      ],
    };
    expect(renderTemplate('${document.id} | ${document.filename}', aggregated)).toBe('1, 2 | d1.txt, d2.txt');
    expect(renderTemplate('${document.content}', aggregated)).toBe('one\n\ntwo');
    expect(renderTemplate('${node.5.llmresponse}', aggregated)).toBe('r1\n\n');
    expect(renderTemplate('[${document.id}]', { ...aggregated, aggregate: [] })).toBe('[]');
    expect(unrenderableWildcards('${document.nope}', aggregated)).toEqual(['${document.nope}']);
  });
});
