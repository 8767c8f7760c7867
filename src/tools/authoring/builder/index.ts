// The AI generator (a model drafts a cartridge from plain English, our checker judges it) and the
// builder's helpers (docs/studio.md).
export { DRAFT_FILES, type DraftFiles } from './draft.ts';
export {
  generateCartridge,
  type GenerateEvent,
  GenerateInputError,
  type GenerateResult,
  type Judged,
  type JudgeInput,
  judgeAnswer,
  type Transcript,
  transcriptMarkdown,
} from './generate.ts';
// Completion and hover (completion.ts) are a second entry: they load vscode-languageserver, which the
// server imports on the first completion request rather than at start.
export { BUILDER_FILE_NAMES, type BuilderFiles, draftFilesOf, filesMap } from './draft-files.ts';
export { compileDraftRules, type DraftRules, RULES_FILES } from './draft-rules.ts';
export {
  BUILDER_EXPLORE_MS,
  MAX_BUILDER_EXPLORE_DEPTH,
  MAX_BUILDER_EXPLORE_RUNS,
  MAX_LISTED_FINDINGS,
  MAX_REPAIR_ROUNDS,
  MAX_REQUIREMENTS_CHARS,
} from './limits.ts';
export { type ExploreDraftInput, type ExploreDraftOutcome, exploreDraft } from './explore-draft.ts';
export { MAX_EXPLORE_SEED } from '../explore/limits.ts';
export { builderTemplates, EMPTY_TEMPLATE, templateFiles } from './templates.ts';
export { type TryResult, TryInputError, tryEvent, tryState } from './try-event.ts';
