import { scoreLines, lineSets, setAvailable } from '../bench/offline-lines.ts';
for (const n of (process.argv.length > 2 ? process.argv.slice(2) : lineSets())) {
  if (!setAvailable(n)) { console.log('skip', n); continue; }
  const s = await scoreLines(n);
  const { results, ...rest } = s;
  console.log(JSON.stringify(rest));
  for (const r of results) if (!r.correct) console.log('  ', r.line.line, JSON.stringify(r.line.text), 'want', r.line.expected, 'got', r.got, r.ranCostly ? 'COSTLY' : '');
}
