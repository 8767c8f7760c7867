import MiniSearch from 'minisearch';
const docs = Array.from({length: 10000}, (_, i) => ({id: i, heading: 'h' + i, text: Array.from({length: 60}, (_, j) => 'w' + ((i * 7919 + j * 104729) % 5000)).join(' ')}));
let t = performance.now();
const ms = new MiniSearch({fields: ['heading','text'], idField: 'id'});
ms.addAll(docs);
console.log('build', performance.now() - t);
for (const prefix of [false, true]) {
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const q = `w${(i*31)%5000} w${(i*17)%5000}`;
    const s = performance.now();
    ms.search(q, {prefix: prefix ? (term: string) => term.length >= 4 : false, boost: {heading: 2}});
    times.push(performance.now() - s);
  }
  times.sort((a,b)=>a-b);
  console.log('prefix', prefix, 'p50', times[150], 'p99', times[297]);
}
