// The AI generator (a model drafts a cartridge from plain English, our checker judges it) and the
// builder's helpers (docs/studio.md).
export { DRAFT_FILES, type DraftFiles } from './draft.ts';
export {
  generateCartridge,
  type GenerateEvent,
  GenerateInputError,
  type GenerateResult,
  type Transcript,
  transcriptMarkdown,
} from './generate.ts';
