/**
 * A version of each process graph (issue 10 section 1): `processes.graph_version`, bumped by row triggers on
 * every write of the graph's rows (nodes, edges, predicates: insert, update, delete, FK cascades included),
 * so the document engine re-reads a graph only when its version moved (activities/projection `transit`).
 * Every node write bumps it, settings included (a change the engine does not read only costs one reload),
 * except an update that changes nothing or only the node's position on the graph page (x, y).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('processes', (t) => {
    t.bigInteger('graph_version').notNullable().defaultTo(1);
  });
  await knex.raw(`
    create function bump_graph_version() returns trigger language plpgsql as $$
    declare
      process_ids bigint[];
    begin
      -- An update that changes nothing, or only a node's position on the graph page, is no graph change.
      if tg_op = 'UPDATE' and (to_jsonb(new) - 'x' - 'y') = (to_jsonb(old) - 'x' - 'y') then
        return null;
      end if;
      if tg_table_name = 'predicates' then
        select array_agg(e.process_id) into process_ids from edges e
          where e.id in (case when tg_op = 'INSERT' then null else old.edge_id end,
                         case when tg_op = 'DELETE' then null else new.edge_id end);
      else
        process_ids := array[case when tg_op = 'INSERT' then null else old.process_id end,
                             case when tg_op = 'DELETE' then null else new.process_id end];
      end if;
      update processes set graph_version = graph_version + 1 where id = any(process_ids);
      return null;
    end $$`);
  for (const table of ['nodes', 'edges', 'predicates'])
    await knex.raw(
      `create trigger ${table}_graph_version after insert or update or delete on ${table}
       for each row execute function bump_graph_version()`,
    );
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['nodes', 'edges', 'predicates'])
    await knex.raw(`drop trigger if exists ${table}_graph_version on ${table}`);
  await knex.raw('drop function if exists bump_graph_version()');
  await knex.schema.alterTable('processes', (t) => {
    t.dropColumn('graph_version');
  });
}
