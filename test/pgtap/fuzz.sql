-- fuzzing: mutated states and FENs are accepted or rejected with 22023/22P02,
-- never anything else (a crash would end the session)
BEGIN;
SELECT plan(6);
SELECT setseed(0.42) \gset

-- Mutates one to three values of a valid state (or drops a fact), then asks
-- for perft, board and heuristic; any other error propagates and fails.
CREATE FUNCTION pg_temp.mutfuzz(game text, base jsonb, n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  i int; s jsonb; ok int := 0; bad int := 0; f int; a int; m int;
  vals jsonb[] := ARRAY['1','8','0','-1','33','2.5','"a"','"h"','"b"','"wk"','"bk"','"bp"','"wp"','"x"','"o"','"red"','"black"','"white"','"man"','"king"','"xplayer"','"oplayer"','"kingside"','null','[]','"e"','3','6','100','81','"wq"']::jsonb[];
BEGIN
  FOR i IN 1..n LOOP
    s := base;
    FOR m IN 1..(1 + (random()*2)::int) LOOP
      f := (random()*(jsonb_array_length(s)-1))::int;
      a := (random()*(jsonb_array_length(s->f)-1))::int;
      IF random() < 0.1 THEN
        s := s - f;
      ELSE
        s := jsonb_set(s, ARRAY[f::text, a::text], vals[1 + (random()*30)::int]);
      END IF;
    END LOOP;
    BEGIN
      PERFORM gametree.perft(game, s, 2);
      PERFORM gametree.board(game, s);
      PERFORM gametree.heuristic(game, s);
      ok := ok + 1;
    EXCEPTION WHEN invalid_parameter_value OR invalid_text_representation THEN bad := bad + 1;
    END;
  END LOOP;
  RETURN format('%s: %s accepted, %s rejected', game, ok, bad);
END $$;

-- Overwrites or deletes up to four characters of a valid FEN.
CREATE FUNCTION pg_temp.fenfuzz(game text, base text, n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE i int; f text; ok int := 0; bad int := 0; pos int; chars text := 'pnbrqkPNBRQK12345678/ wbKQkq-0123456789:WBx,.';
BEGIN
  FOR i IN 1..n LOOP
    f := base;
    FOR pos IN 1..(1 + (random()*3)::int) LOOP
      f := overlay(f placing substr(chars, 1 + (random()*(length(chars)-1))::int, 1) from 1 + (random()*(length(f)-1))::int for (random()*2)::int);
    END LOOP;
    BEGIN
      PERFORM gametree.perft(game, gametree.from_fen(game, f), 2);
      PERFORM gametree.to_fen(game, gametree.from_fen(game, f));
      ok := ok + 1;
    EXCEPTION WHEN invalid_parameter_value OR invalid_text_representation THEN bad := bad + 1;
    END;
  END LOOP;
  RETURN format('%s FEN: %s accepted, %s rejected', game, ok, bad);
END $$;

SELECT lives_ok($$SELECT pg_temp.mutfuzz('tictactoe', gametree.next('tictactoe', gametree.initial('tictactoe'), '["mark",2,2]'), 1000)$$,
                'tic-tac-toe: 1000 mutated states');
SELECT lives_ok($$SELECT pg_temp.mutfuzz('connect4', gametree.next('connect4', gametree.next('connect4', gametree.initial('connect4'), '["drop",4]'), '["drop",4]'), 1000)$$,
                'connect four: 1000 mutated states');
SELECT lives_ok($$SELECT pg_temp.mutfuzz('chess', gametree.from_fen('chess', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'), 1000)$$,
                'chess: 1000 mutated states');
SELECT lives_ok($$SELECT pg_temp.mutfuzz('checkers', gametree.initial('checkers'), 1000)$$,
                'checkers: 1000 mutated states');
SELECT lives_ok($$SELECT pg_temp.fenfuzz('chess', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 2000)$$,
                'chess: 2000 mutated FENs');
SELECT lives_ok($$SELECT pg_temp.fenfuzz('checkers', 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12', 2000)$$,
                'checkers: 2000 mutated PDN FENs');

SELECT * FROM finish();
ROLLBACK;
