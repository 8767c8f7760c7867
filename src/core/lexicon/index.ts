// English words as the offline matcher weighs them: WordNet's verbs, parsed from its text (wordnet.ts).
export {
  EMPTY_LEXICON,
  GENERAL_DEPTH,
  type IndexEntry,
  type Lexicon,
  hypernymsAt,
  parseIndexLine,
  sortedIndex,
  KIND_DEPTH,
  KIND_SENSES,
  SAID_SAME_SENSES,
  type VerbRelation,
  VERB_SAME_SENSES,
  type WordnetFiles,
  wordnetLexicon,
} from './wordnet.ts';
export { IDIOMS, type Idiom, MAX_SLOT_WORDS, rewriteIdioms } from './idioms.ts';
