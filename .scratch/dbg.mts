import { verbMatch, wordsMatch } from '../src/engine/turn/offline/words.ts';
for (const w of ['cast','spell','healing','i']) for (const v of ['look','examine','talk']) { const m = verbMatch(w, v); if (m) console.log(w, v, m); }
