-- chess bad input: malformed FEN is 22P02 naming the field, impossible
-- positions and illegal moves are 22023
BEGIN;
SELECT plan(30);

-- malformed FEN, field by field
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1')$$, '22P02',
  'invalid FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1": the board has 7 ranks, not 8', 'seven ranks');
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1')$$, '22P02',
  'invalid FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1": the board has more than 8 ranks', 'nine ranks');
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')$$, '22P02',
  'invalid FEN "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1": rank 7 of the board has 7 squares, not 8', 'short rank');
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')$$, '22P02',
  'invalid FEN "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1": the board has the invalid character "9"', 'bad digit');
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/8/4P4/PPPP1PPP/RNBQKBNR b KQkq - 0 1')$$, '22P02',
  'invalid FEN "rnbqkbnr/pppppppp/8/8/8/4P4/PPPP1PPP/RNBQKBNR b KQkq - 0 1": rank 3 of the board has more than 8 squares', 'long rank');
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBXR w KQkq - 0 1')$$, '22P02',
  'invalid FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBXR w KQkq - 0 1": the board has the invalid character "X"', 'unknown piece');
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0')$$, '22P02',
  'invalid FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0": 5 fields, not 6 (board, side to move, castling, en passant, halfmove clock, fullmove number) or the first 4 of them',
  'one clock of two');
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1')$$, '22P02',
  'invalid FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1": the side to move must be "w" or "b", not "x"', 'side to move');
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1')$$, '22P02',
  'invalid FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1": the castling field must be "-" or letters of "KQkq", not "KQkx"', 'castling letter');
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1')$$, '22P02',
  'invalid FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1": the castling field gives "K" twice', 'castling twice');
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1')$$, '22P02',
  'invalid FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1": the en passant field must be "-" or a square on rank 3 or 6, not "e5"',
  'en passant field');
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1')$$, '22P02',
  'invalid FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1": the halfmove clock must be an integer from 0 to 65535, not "-1"',
  'halfmove clock');
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0')$$, '22P02',
  'invalid FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0": the fullmove number must be an integer from 1 to 65535, not "0"',
  'fullmove number');

-- impossible positions
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1')$$, '22023',
  'invalid chess state: white has 2 kings', 'two white kings');
SELECT throws_ok($$SELECT gametree.from_fen('chess', '8/8/8/8/8/8/8/4K3 w - - 0 1')$$, '22023',
  'invalid chess state: black has no king', 'no black king');
SELECT throws_ok($$SELECT gametree.from_fen('chess', '4k3/8/8/8/8/8/8/P3K3 w - - 0 1')$$, '22023',
  'invalid chess state: a pawn stands on a1, on the first or last rank', 'pawn on the first rank');
SELECT throws_ok($$SELECT gametree.from_fen('chess', '4k3/8/8/8/8/8/4R3/4K3 w - - 0 1')$$, '22023',
  'invalid chess state: black is in check, but white is to move', 'the side not to move in check');
SELECT throws_ok($$SELECT gametree.from_fen('chess', '4k3/8/8/8/8/8/8/4K3 w K - 0 1')$$, '22023',
  'invalid chess state: castling white kingside needs the king on e1 and a rook on h1', 'castling without a rook');
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1')$$, '22023',
  'invalid chess state: en passant square e6 does not follow a double step of a black pawn', 'en passant without the pawn');

-- impossible or malformed facts
SELECT throws_ok($$SELECT gametree.legal('chess', '[["cell","e",1,"wk"],["cell","e",8,"bk"],["cell","e",1,"b"],["control","white"]]')$$, '22023',
  'invalid chess state: cell e 1 is given twice', 'a cell twice');
SELECT throws_ok($$SELECT gametree.legal('chess', '[["cell","e",1,"wk"],["cell","e",8,"bk"]]')$$, '22023',
  'invalid chess state: the control fact is missing', 'no control');
SELECT throws_ok($$SELECT gametree.legal('chess', '[["cell","e",1,"wk"],["cell","e",8,"bk"],["cell","e",7,"wr"],["control","white"]]')$$, '22023',
  'invalid chess state: black is in check, but white is to move', 'facts: the side not to move in check');

-- illegal moves in every notation
SELECT throws_ok($$SELECT gametree.next('chess', gametree.initial('chess'), '["move","e2","e5"]')$$, '22023',
  'illegal chess move ["move", "e2", "e5"]: not a legal action of role "white"', 'illegal jsonb action');
SELECT throws_ok($$SELECT gametree.next('chess', gametree.initial('chess'), '"e2e5"')$$, '22023',
  'illegal chess move "e2e5": not a legal action of role "white"', 'illegal UCI move');
SELECT throws_ok($$SELECT gametree.next('chess', gametree.from_fen('chess', '1n5k/P7/8/8/8/8/8/K7 w - - 0 1'), '"a7a8"')$$, '22023',
  'illegal chess move "a7a8": not a legal action of role "white"', 'promotion without a piece');
SELECT throws_ok($$SELECT gametree.next('chess', gametree.initial('chess'), '"e7e5"')$$, '22023',
  'illegal chess move "e7e5": not a legal action of role "white"', 'a black move when white is to move');
SELECT throws_ok($$SELECT gametree.next('chess', gametree.initial('chess'),
  '[["does","white","noop"],["does","black",["move","e7","e5"]]]')$$, '22023',
  'illegal chess move [["does", "white", "noop"], ["does", "black", ["move", "e7", "e5"]]]: role "black" is not in control and must do "noop"',
  'a joint move by the side not to move');
SELECT throws_ok($$SELECT gametree.next('chess', gametree.from_fen('chess', '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'), '"h8h7"')$$, '22023',
  'illegal chess move "h8h7": the state is terminal', 'a move after stalemate');

-- the fast path answers a cancel: catch it here, throws_ok does not
CREATE FUNCTION pg_temp.chess_perft_cancelled() RETURNS boolean LANGUAGE plpgsql AS $f$
BEGIN
  PERFORM gametree.perft('chess', gametree.initial('chess'), 12);
  RETURN false;
EXCEPTION WHEN query_canceled THEN
  RETURN true;
END $f$;
SET LOCAL statement_timeout = '300ms';
SELECT ok(pg_temp.chess_perft_cancelled(), 'chess perft stops at statement_timeout');
RESET statement_timeout;

-- 26 queens would have 262 legal moves, past any move buffer; at most 16 men a side
SELECT throws_ok($$SELECT gametree.from_fen('chess', 'QQQQQQbk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1')$$,
                 '22023', 'invalid chess state: white has 27 pieces and 0 pawns; a side has at most 16 and 8',
                 'more than 16 men a side: 22023 (found by fuzz/decode_fuzzer)');

SELECT * FROM finish();
ROLLBACK;
