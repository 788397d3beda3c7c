-- The functions a sharded tree's coordinator calls on its nodes (issue 24),
-- on one server: two nodes' parts of one connect four tree, in schemas
-- shard_n1 (node 1, the ids below 0) and shard_n2 (node 2, the rest), as
-- two servers would hold them; this session plays node 2, a dblink
-- session node 1 (a part kept in memory for a propagation is a session's).
-- What travels between them is passed here in SQL, as the coordinator
-- passes it (test/t/shard_check.sh runs the real thing over three servers).
-- Checked: the states node 1's expansion found for node 2 arrive once and
-- are the root's successors in node 2's range; shipping them again stores
-- nothing; the values of a propagation reach node 1's edges in memory;
-- and every malformed payload, call out of order or call on a part gets
-- its error.
SET client_min_messages = warning;
SELECT plan(22);

\ir helpers.psql

DELETE FROM gametree.trees WHERE schema IN ('shard_n1', 'shard_n2');
DELETE FROM gametree.tree_nodes WHERE schema IN ('shard_n1', 'shard_n2');
DROP SCHEMA IF EXISTS shard_n1 CASCADE;
DROP SCHEMA IF EXISTS shard_n2 CASCADE;
CREATE SCHEMA shard_n1;
CREATE SCHEMA shard_n2;

-- The root of connect four has an id below 0: node 1 holds it.
SELECT ok(gametree.state_hash('connect4', gametree.initial('connect4')) < 0, 'the root of connect four is node 1''s');
SELECT is(gametree.shard_create('shard_n1.c4', 'connect4', 1, -9223372036854775808, -1,
                                gametree.initial('connect4')),
          gametree.state_hash('connect4', gametree.initial('connect4')),
          'shard_create: node 1''s part holds the root');
SELECT is(gametree.shard_create('shard_n2.c4', 'connect4', 2, 0, 9223372036854775807,
                                gametree.initial('connect4')),
          NULL, 'shard_create: node 2''s part does not');

CALL gametree.shard_grow('shard_n1.c4', 0, NULL, NULL);
CREATE TEMP TABLE expected AS
  SELECT DISTINCT gametree.state_hash('connect4', s.next) AS id
  FROM gametree.successors('connect4', gametree.initial('connect4')) s
  WHERE gametree.state_hash('connect4', s.next) >= 0;
SELECT is((SELECT sum(states) FROM shard_n1.c4_outbox), (SELECT count(*)::numeric FROM expected),
          'node 1''s outbox holds the root''s successors that node 2 holds');
INSERT INTO shard_n1.c4_outbox VALUES (1, '\x0102');
SELECT is(pg_temp.try($$SELECT * FROM gametree.shard_outbox('shard_n1.c4', '{2}', '{0}', '{9223372036854775807}')$$),
          '22P03: the outbox shard_n1.c4_outbox: not rows of 9 columns (no header)',
          'shard_outbox refuses an outbox row that is no payload');
DELETE FROM shard_n1.c4_outbox WHERE payload = '\x0102';

CREATE TEMP TABLE shipment AS
  SELECT * FROM gametree.shard_outbox('shard_n1.c4', '{2}', '{0}', '{9223372036854775807}');
SELECT is((SELECT array_agg(node) FROM shipment), '{2}', 'shard_outbox: one payload, for node 2');
SELECT is(gametree.shard_accept('shard_n2.c4', 1, (SELECT payload FROM shipment)),
          (SELECT count(*) FROM expected), 'shard_accept stores every state shipped');
SELECT set_eq('SELECT id FROM shard_n2.c4_states', 'SELECT id FROM expected',
              'node 2 holds exactly the root''s successors in its range');
SELECT is(gametree.shard_accept('shard_n2.c4', 1, (SELECT payload FROM shipment)), 0::bigint,
          'shard_accept of the same payload again stores nothing');
SELECT is(pg_temp.try($$SELECT gametree.shard_accept('shard_n1.c4', 2, (SELECT payload FROM shipment))$$),
          '22000: node 2 shipped to tree "shard_n1.c4" a state it does not hold',
          'shard_accept refuses states of another node''s range');
SELECT is(pg_temp.try($$SELECT gametree.shard_accept('shard_n2.c4', 1, '\x0102'::bytea)$$),
          '22P03: states shipped to tree "shard_n2.c4": not rows of 9 columns (no header)',
          'shard_accept refuses bytes that are no payload');
SELECT is(pg_temp.try($$SELECT gametree.shard_accept('shard_n2.c4', 1,
                          substring((SELECT payload FROM shipment) FROM 1 FOR 40))$$),
          '22P03: states shipped to tree "shard_n2.c4": not rows of 9 columns (a value longer than what is left)',
          'shard_accept refuses a payload cut short');
SELECT is(pg_temp.try($$SELECT * FROM gametree.shard_outbox('shard_n1.c4', '{2}', '{0, 1}', '{5}')$$),
          '2202E: the nodes, their lows and their highs are arrays of one length',
          'shard_outbox refuses ranges that do not match the nodes');

-- A propagation: node 1 (the dblink session) reads its part and asks node 2
-- for the values of the states its edges lead to; node 2 sends them.
SELECT dblink_connect('node1', pg_temp.connstr());
CREATE TEMP TABLE wanted AS
  SELECT * FROM dblink('node1', $$SELECT node, states, payload FROM gametree.shard_part('shard_n1.c4', false,
                                  '{2}', '{0}', '{9223372036854775807}')$$)
    AS t(node integer, states bigint, payload bytea);
SELECT is((SELECT sum(states) FROM wanted), (SELECT count(*)::numeric FROM expected),
          'shard_part: node 1 wants the value of each of its children on node 2');
SELECT is(pg_temp.try($$SELECT gametree.shard_take_values('shard_n2.c4', '\x00'::bytea)$$),
          '55000: no propagation of tree "shard_n2.c4" is under way in this session',
          'shard_take_values before shard_part: no propagation under way');
SELECT lives_ok($$SELECT * FROM gametree.shard_part('shard_n2.c4', false, '{1}', '{-9223372036854775808}', '{-1}')$$,
                'shard_part on node 2');
SELECT is(gametree.shard_take_wanted('shard_n2.c4', 1, (SELECT payload FROM wanted)),
          (SELECT count(*) FROM expected), 'shard_take_wanted: node 2 holds every state node 1 wants');
CREATE TEMP TABLE sent AS SELECT * FROM gametree.shard_values('shard_n2.c4');
SELECT is((SELECT (SELECT * FROM dblink('node1', format('SELECT gametree.shard_take_values(%L, %L::bytea)',
                                                       'shard_n1.c4', payload)) AS t(changed bigint))
           FROM sent WHERE node = 1),
          (SELECT count(*) FROM expected),
          'shard_take_values: each value lands on node 1''s edge to its state');
SELECT is((SELECT count(*) FROM gametree.shard_values('shard_n2.c4')), 0::bigint,
          'shard_values again: nothing written since, nothing sent');
SELECT is(pg_temp.try($$SELECT gametree.shard_take_values('shard_n2.c4', '\x0102'::bytea)$$),
          '22P03: values sent to tree "shard_n2.c4" are not values of its states',
          'shard_take_values refuses bytes that are no values');
SELECT dblink_disconnect('node1');

SELECT is(pg_temp.try($$SELECT gametree.propagate('shard_n1.c4')$$),
          '0A000: tree "shard_n1.c4" is a node''s part of a sharded tree',
          'propagate refuses a node''s part: it has not the other nodes'' values');
SELECT is(pg_temp.try($$CALL gametree.grow('shard_n1.c4')$$),
          '0A000: tree "shard_n1.c4" is a node''s part of a sharded tree',
          'grow refuses a node''s part');

-- The other tests of this database find only their own trees.
\o /dev/null
SELECT gametree.drop_tree('shard_n1.c4');
SELECT gametree.drop_tree('shard_n2.c4');
\o
DROP SCHEMA shard_n1;
DROP SCHEMA shard_n2;

SELECT * FROM finish();
