/**
 * The world of the relation suites (relations, relations-issues-journey, relation-graph-view): a process
 * Upload -> Entities (SPAN, handles relations) with the tag types Person, Place and Org and the relation types
 * "lives in" (Person -> Place, priority high), "works at" and "employed by" (Person -> Org, priorities medium
 * and highest), built by a new system admin through the API; a document of `text` whose Entities step waits,
 * and the tags Anna Kowalska, Warsaw, Acme, Jan Nowak, Krakow and Nobody written into it.
 */
import type { Knex } from 'knex';
import type { Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import { buildUser } from '../support/harness';
import { addNerTagType, api, createProcess, tokenFor } from './support';

/** A relation graph as GET api/ner-tag-relation-graphs answers it (what the suites look at). */
export interface GraphView {
  id: number;
  relations: { id: number; fromId: number; toId: number; relationTypeId: number }[];
}

/** The document text of the relations and the relation graph view suites. */
export const RELATIONS_TEXT =
  'Anna Kowalska lives in Warsaw and works at Acme.\n' + 'Jan Nowak comes from Krakow.\n' + 'Nobody else.\n';

interface StateView {
  steps: { id: number; status: string; nodeId: number }[];
}

export interface RelationsWorld {
  /** the system admin's token */
  token: string;
  processId: number;
  documentId: number;
  stepId: number;
  ids: {
    span: number;
    person: number;
    place: number;
    org: number;
    livesIn: number;
    worksAt: number;
    employedBy: number;
  };
  tag: Record<'anna' | 'warsaw' | 'acme' | 'jan' | 'krakow' | 'nobody', number>;
}

export async function buildRelationsWorld(
  knex: Knex,
  { processName, filename, text }: { processName: string; filename: string; text: string },
): Promise<RelationsWorld> {
  const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
  const token = await tokenFor(admin.login, admin.password);
  const processId = await createProcess(token, processName);
  const nodes = await api<{ id: number; activityType: string }[]>(token, `/api/nodes?processId=${processId}`);
  const upload = nodes.find((n) => n.activityType === 'HUP')!;
  const post = async (path: string, body: Record<string, unknown>) =>
    (await api<{ id: number }>(token, path, { method: 'POST', body: JSON.stringify(body) })).id;
  const span = await post('/api/nodes', {
    processId,
    name: 'Entities',
    activityType: 'SPAN',
    handlesRelations: true,
  });
  const tagType = (name: string, backgroundColor: string) =>
    addNerTagType(token, span, { name, backgroundColor, textColor: '#000000' });
  const person = await tagType('Person', '#f8d7da');
  const place = await tagType('Place', '#cfe2ff');
  const org = await tagType('Org', '#d1e7dd');
  const relationType = (name: string, color: string, fromId: number, toId: number, priority: number) =>
    post('/api/ner-tag-relation-types', { nodeId: span, name, color, fromId, toId, priority });
  const ids = {
    span,
    person,
    place,
    org,
    livesIn: await relationType('lives in', '#0d6efd', person, place, 3),
    worksAt: await relationType('works at', '#198754', person, org, 2),
    employedBy: await relationType('employed by', '#dc3545', person, org, 4),
  };
  await post('/api/edges', { fromId: upload.id, toId: span });
  const documentId = await post('/api/documents', { processId, filename, content: text });
  const state = await eventuallyMatches(
    () => api<StateView>(token, `/api/v2/document/${documentId}/state`),
    (v) => v.steps.some((x) => x.nodeId === span && x.status === 'WAITING'),
    'the span step waits',
  );
  const stepId = state.steps.find((x) => x.nodeId === span)!.id;
  const insert = async (needle: string, typeId: number) => {
    const at = text.indexOf(needle);
    const [row] = await knex('ner_tags')
      .insert({
        document_id: documentId,
        step_id: stepId,
        ner_tag_type_id: typeId,
        type: 'SPAN_TAG',
        start_offset: at,
        end_offset: at + needle.length,
      })
      .returning('id');
    return Number(row.id);
  };
  const tag = {
    anna: await insert('Anna Kowalska', person),
    warsaw: await insert('Warsaw', place),
    acme: await insert('Acme', org),
    jan: await insert('Jan Nowak', person),
    krakow: await insert('Krakow', place),
    nobody: await insert('Nobody', person),
  };
  return { token, processId, documentId, stepId, ids, tag };
}

/** On the open workspace of the world's document: waits for its six tags and starts working on the step. */
export async function startWorking(page: Page): Promise<void> {
  await page.locator('[data-testid="document-text"][data-tag-count="6"]').waitFor();
  await page
    .locator('[data-testid="step-row"][data-selected="true"]')
    .getByTestId('step-action-startWorking')
    .click();
  await page.getByTestId('labeling-undo').waitFor({ timeout: 30000 });
}
