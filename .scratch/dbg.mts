import { verbMatch, wordsMatch } from '../src/engine/turn/offline/words.ts';
for (const w of ['sing','song']) for (const v of ['talk','ask','chat','with','about','speak','know']) { const m = verbMatch(w, v); if (m || wordsMatch(w,v)) console.log(w, v, m, wordsMatch(w, v)); }
