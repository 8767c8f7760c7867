// The cartridge loader's public API: load a folder or a map of files into an immutable `Cartridge`, and
// the building blocks (safe YAML, directives, injection check, persona macros, limits) for other layers.

export type { CartridgeCode } from './diagnostics.ts';
export {
  type Directives,
  type DirectiveRole,
  type DirectivesInput,
  validateDirectives,
} from './directives.ts';
export {
  CARTRIDGE_FILES,
  type CartridgeFileKind,
  type CartridgeFileSpec,
  readCartridgeFolder,
} from './files.ts';
export { checkInjection, type InjectionFinding, type InjectionKind } from './injection.ts';
export * from './limits.ts';
export {
  type Cartridge,
  type CartridgeFiles,
  type LoadFromFilesOptions,
  type LoadOptions,
  type LoadResult,
  loadCartridge,
  contentHash,
  loadCartridgeFromFiles,
} from './load.ts';
export { applyPersonaMacros, DEFAULT_PERSONA, type Persona, validatePersona } from './persona.ts';
export {
  nodeAtPath,
  parseYamlSafely,
  placeAtPath,
  placeOf,
  toPlain,
  type YamlLimits,
  type YamlParseResult,
} from './yaml.ts';
export { defineRules, type RulesObject } from './js-rules/define.ts';
export { type ImpliedIntent, type IntentInputs, phraseKey } from './intents.ts';
export * from './archive/index.ts';
export { endsLikeZip, isZip, readZip } from './archive/zip.ts';
