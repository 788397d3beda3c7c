-- A session waiting for another's lock on a tree says so, every
-- gametree.progress_interval, instead of hanging silently.
SELECT gametree.create_tree('waiting', 'tictactoe') IS NOT NULL AS created;
SELECT dblink_connect('holder', format('dbname=%s host=%s port=%s', current_database(),
       split_part(current_setting('unix_socket_directories'), ',', 1), current_setting('port')));
SELECT dblink_exec('holder', 'BEGIN');
-- propagate() takes the tree's lock until the holder's transaction ends
SELECT * FROM dblink('holder', $$SELECT gametree.propagate('waiting')$$) AS r(evaluations bigint);
-- Each wait lasts past deadlock_timeout (so that deadlocks are detected):
-- below the progress interval here.
SET deadlock_timeout = 200;
SET gametree.progress_interval = 1000;
SET statement_timeout = 1500;
SELECT gametree.propagate('waiting');
RESET statement_timeout;
SELECT dblink_exec('holder', 'ROLLBACK');
SELECT dblink_disconnect('holder');
SELECT gametree.propagate('waiting');
SELECT gametree.drop_tree('waiting');
