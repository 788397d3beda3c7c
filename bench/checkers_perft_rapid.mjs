// Checkers perft with the npm package rapid-draughts (English draughts,
// bitboards), bulk counting at the last ply like gametree's fast path.
// Usage: node checkers_perft_rapid.mjs [depth] [runs]; prints
// "<leaves> <median nodes/s>" on the last line, one line per run before it.
import { EnglishDraughtsEngineFactory } from 'rapid-draughts/english';

function perft(engine, depth) {
  const moves = engine.moves;
  if (depth <= 1) return moves.length;
  let leaves = 0;
  for (const move of moves) {
    const child = engine.clone();
    child.move(move);
    leaves += perft(child, depth - 1);
  }
  return leaves;
}

const depth = Number(process.argv[2] ?? 10);
const runs = Number(process.argv[3] ?? 3);
const rates = [];
let leaves = 0;
for (let run = 0; run < runs; run++) {
  const start = process.hrtime.bigint();
  leaves = perft(EnglishDraughtsEngineFactory.setup(), depth);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  rates.push(leaves / seconds);
  console.log(`run ${run + 1}: ${leaves} leaves in ${seconds.toFixed(3)} s`);
}
rates.sort((a, b) => a - b);
console.log(`${leaves} ${Math.round(rates[Math.floor(rates.length / 2)])}`);
