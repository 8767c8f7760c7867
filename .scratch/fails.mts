import { scoreLines } from '../bench/offline-lines.ts';
for (const n of process.argv.slice(2)) {
  const s = await scoreLines(n);
  for (const r of s.results) if (!r.correct) console.log(n, r.line.line, JSON.stringify(r.line.text), 'want', r.line.expected, 'got', r.got);
}
