// The cartridge loader's public API: load a folder or a map of files into an immutable `Cartridge`, and
// the building blocks (safe YAML, directives, injection check, persona macros, limits) for other layers.

export { type CartridgeCode, cartError, fileStart } from './diagnostics.ts';
export {
  type Directives,
  type DirectiveRole,
  type DirectivesInput,
  validateDirectives,
} from './directives.ts';
export {
  CARTRIDGE_FILES,
  COMPANION_FILES,
  type CartridgeFileKind,
  type CartridgeFileSpec,
  specOf,
} from './files.ts';
export { checkInjection, type InjectionFinding, type InjectionKind } from './injection.ts';
export { RULES_FILE_NAMES } from './js-rules/hook.ts';
export * from './limits.ts';
export {
  type Cartridge,
  type CartridgeFiles,
  type LoadFromFilesOptions,
  type LoadOptions,
  type LoadResult,
  contentHash,
  joinPath,
  compileCartridge,
} from './load.ts';
export {
  admissionOf,
  compileCondition,
  type CompiledCondition,
  compileLoreConditions,
  type ConditionFiles,
  type ConditionVerdict,
  type ConditionVerdicts,
  evaluateLoreConditions,
  LEDGER_CONDITION_FUNCTIONS,
  type LoreConditions,
  type VerdictTable,
  worldInfoReason,
  worldInfoUnderVerdicts,
} from './lore-conditions.ts';
export {
  applyPersonaMacros,
  applyStoryMacros,
  DEFAULT_PERSONA,
  isSecondPerson,
  type Persona,
  STORY_PLAYER,
  validatePersona,
} from './persona.ts';
export { secondPerson, thirdPerson } from './verbs.ts';
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
export * from './js-rules/limits.ts';
export * from './js-rules/sandbox-port.ts';
