import { englishLexicon } from '../src/adapters/lexicon/index.ts';
const L = englishLexicon();
const pairs = process.argv.slice(2).map(p => p.split('>'));
for (const [a,b] of pairs) console.log(a, b, L.relation(a,b), L.mostlyVerb(a));
