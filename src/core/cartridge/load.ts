// Loading a cartridge: from a folder, or from a map of file name to content (an uploaded archive). The
// result is an immutable `Cartridge`, or every error found (each with `file:line:col` and a stable code),
// with the warnings in both cases. The loader keeps going after an error so an author sees all of them.

import type { Diagnostic } from '../diagnostics.ts';
import { type CompiledRules, compileRules, declaredStatePaths } from '../yare/index.ts';
import { type LedgerSection, validateLedgerSection } from '../ledger/index.ts';
import { cartError, cartWarning, fileStart, hasErrors, placeInText } from './diagnostics.ts';
import { type Directives, validateDirectives } from './directives.ts';
import { CARTRIDGE_FILES, type CartridgeFileKind, type CartridgeFileSpec, specOf } from './files.ts';
import { deepFreeze } from './freeze.ts';
import { checkInjection } from './injection.ts';
import { type IntentInputs, NO_INTENT_INPUTS, validateIntentInputs } from './intents.ts';
import { hasRulesScript, rulesScriptOf, type ScriptRules } from './js-rules/hook.ts';
import type { RulesSandbox } from './js-rules/sandbox-port.ts';
import { checkMinigameStart } from './minigame-configs.ts';
import { applyPersonaMacros, applyStoryMacros, type Persona, validatePersona } from './persona.ts';
import { chunkConditionalLore, type ConditionalLore, LoreError, type WorldInfoBook } from '../lore/index.ts';
import { compileLoreConditions } from './lore-conditions.ts';
import { parseAlternateGreetings } from './greetings.ts';
import { loadWorldInfo } from './world-info-file.ts';
import { decodeCartridgeFile } from './text.ts';
import { Sha256 } from './sha256.ts';
import { normaliseName } from '../text-policy.ts';
import { parseYamlSafely, placeAtPath, toPlain } from './yaml.ts';

export interface CartridgeFiles {
  readonly yare: string;
  readonly lore: string;
  readonly directives?: string;
  readonly firstMessage?: string;
  readonly alternateGreetings?: string;
  readonly intents?: string;
  readonly worldInfo?: string;
}

export interface Cartridge {
  /** `bot_name` from yare.yaml when it is set, else the folder (or given) name. */
  readonly name: string;
  /** SHA-256 (hex) over the cartridge files' names and bytes; the persona is not part of it. */
  readonly contentHash: string;
  readonly rules: CompiledRules;
  /** The world-ledger write policy (rules-owned names, narrator-owned attributes) and the starting world. */
  readonly ledger: LedgerSection;
  readonly directives: Directives;
  /** `bot_lore.md` with the persona macros applied. */
  readonly lore: string;
  /** `first-message.md` with the persona macros applied, when the file exists. */
  readonly firstMessage: string | undefined;
  /** `alternate_greetings.json` with the persona macros applied: greeting n (n ≥ 1) of a new game is item n-1. */
  readonly alternateGreetings: readonly string[];
  /** `intents.yaml`: the inputs intent phrases imply, by event (empty without the file). */
  readonly intentInputs: IntentInputs;
  /** `world_info.json` (persona macros applied): entries activated by their keys each turn; absent without the file. */
  readonly worldInfo?: WorldInfoBook;
  /** The paths the files were read from, as shown in diagnostics. */
  readonly files: CartridgeFiles;
  /**
   * A diagnostic placed in the compiled rules, placed where the author wrote it: for `yare.js`/`yare.ts`,
   * the rules are compiled from YAML the sandbox produced, a file that exists nowhere on disk. Later
   * passes over `rules` (lint) map their findings through this. Absent: the places are the author's.
   */
  readonly placeInRules?: (diagnostic: Diagnostic) => Diagnostic;
}

export type LoadResult =
  | { ok: true; cartridge: Cartridge; warnings: Diagnostic[] }
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };

export interface LoadOptions {
  /** The player's persona for `{{user}}` and the pronoun macros; `DEFAULT_PERSONA` when absent. */
  readonly persona?: Persona;
}

export interface LoadFromFilesOptions extends LoadOptions {
  /** Prefix of file paths in diagnostics and `Cartridge.files` (the folder path); none by default. */
  readonly root?: string;
  /**
   * Runs `yare.js` / `yare.ts` (src/adapters/sandbox's QUICKJS_SANDBOX; src/adapters/files passes it). Without
   * one, a cartridge whose rules are a module fails to load with CART_RULES_SCRIPT.
   */
  readonly sandbox?: RulesSandbox;
}

/**
 * `root/name`, normalised as POSIX `path.join` does (no `.` or empty segments, `..` folded where it can be),
 * so diagnostics name the files as the folder reader does.
 */
export function joinPath(root: string, name: string): string {
  const absolute = root.startsWith('/');
  const out: string[] = [];
  for (const part of `${root}/${name}`.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (part !== '..' || !absolute) out.push(part);
  }
  const joined = out.join('/');
  return absolute ? `/${joined}` : joined || '.';
}

export function compileCartridge(
  files: ReadonlyMap<string, string | Uint8Array>,
  name: string,
  options: LoadFromFilesOptions = {},
): LoadResult {
  if (options.persona !== undefined) {
    const personaProblems = validatePersona(options.persona);
    if (personaProblems.length > 0) return { ok: false, errors: personaProblems, warnings: [] };
  }
  const pathOf = (spec: CartridgeFileSpec) => (options.root ? joinPath(options.root, spec.name) : spec.name);
  const where = options.root ? `the cartridge folder '${options.root}'` : `cartridge '${name}'`;
  const read: CartridgeRead = { files, pathOf, persona: options.persona, diagnostics: [] };
  const { diagnostics } = read;
  const texts = readCartridgeTexts(read, where);
  const { script, yarePath, rules, ledger } = compileRulesOf(read, texts, options.sandbox);
  const directives = readDirectives(read, texts.get('directives'));
  const intentInputs =
    rules === undefined ? NO_INTENT_INPUTS : readIntents(read, texts.get('intents'), rules);
  const { worldInfo, lore, firstMessage, alternateGreetings } = readProseFiles(read, texts, rules, name);
  const cartridgeName = rules === undefined ? undefined : cartridgeNameOf(read, rules, name, yarePath);

  const errors = diagnostics.filter((d) => d.severity === 'error');
  const warnings = diagnostics.filter((d) => d.severity === 'warning');
  if (hasErrors(diagnostics) || !rules || !ledger || lore === undefined) {
    if (errors.length === 0) {
      // compileRules returned no rules without saying why: still a failure, never a half-loaded cartridge.
      errors.push(cartError('CART_BAD_FIELD', 'yare.yaml did not compile.', fileStart(yarePath)));
    }
    return { ok: false, errors, warnings };
  }
  const cartridge: Cartridge = {
    name: cartridgeName ?? name,
    contentHash: contentHash(files),
    rules,
    ledger,
    directives,
    lore,
    firstMessage,
    alternateGreetings,
    intentInputs,
    ...(worldInfo === undefined ? {} : { worldInfo }),
    files: fileNamesOf(read, script ? script.path : yarePath),
    ...(script === undefined ? {} : { placeInRules: script.remap }),
  };
  return { ok: true, cartridge: deepFreeze(cartridge), warnings };
}

/**
 * The rules: yare.yaml, or yare.js / yare.ts evaluated in the sandbox and compiled as the YAML it produces
 * (js-rules/), its diagnostics then placed in the module.
 */
function compileRulesOf(
  read: CartridgeRead,
  texts: ReadonlyMap<CartridgeFileKind, string>,
  sandbox: RulesSandbox | undefined,
): { script: ScriptRules | undefined; yarePath: string; rules?: CompiledRules; ledger?: LedgerSection } {
  const { files, pathOf, diagnostics } = read;
  const script = rulesScriptOf(files, texts, pathOf, sandbox);
  if (script) diagnostics.push(...script.diagnostics);
  const yarePath = script ? script.generatedFile : pathOf(specOf('yare'));
  const yareText = script ? script.yaml : texts.get('yare');
  const firstRulesDiagnostic = diagnostics.length;
  const { rules, ledger } = yareText === undefined ? {} : compileRulesFile(read, yareText, yarePath);
  if (script)
    diagnostics.splice(
      firstRulesDiagnostic,
      Infinity,
      ...diagnostics.slice(firstRulesDiagnostic).map(script.remap),
    );
  return {
    script,
    yarePath,
    ...(rules === undefined ? {} : { rules }),
    ...(ledger === undefined ? {} : { ledger }),
  };
}

/**
 * The World Info book and the lore (whose `when:` conditions are checked against the rules), the first message
 * and the alternate greetings.
 */
function readProseFiles(
  read: CartridgeRead,
  texts: ReadonlyMap<CartridgeFileKind, string>,
  rules: CompiledRules | undefined,
  name: string,
): Pick<Cartridge, 'firstMessage' | 'alternateGreetings'> & {
  worldInfo: WorldInfoBook | undefined;
  lore: string | undefined;
} {
  const { pathOf, persona, diagnostics } = read;
  let worldInfo: WorldInfoBook | undefined;
  const worldInfoText = texts.get('worldInfo');
  if (worldInfoText !== undefined) {
    const loaded = loadWorldInfo(worldInfoText, pathOf(specOf('worldInfo')), rules?.botName ?? name, persona);
    worldInfo = loaded.book;
    diagnostics.push(...loaded.diagnostics);
  }
  const lore = proseOf(texts.get('lore'), pathOf(specOf('lore')), persona, diagnostics);
  if (lore !== undefined && rules) {
    const loreFiles = {
      lore: pathOf(specOf('lore')),
      ...(worldInfoText === undefined
        ? {}
        : { worldInfo: { file: pathOf(specOf('worldInfo')), text: worldInfoText } }),
    };
    diagnostics.push(...loreConditionDiagnostics(rules, lore, worldInfo, loreFiles));
  }
  const firstMessage = proseOf(
    texts.get('firstMessage'),
    pathOf(specOf('firstMessage')),
    persona,
    diagnostics,
    'story',
  );
  const alternateGreetings = readAlternateGreetings(read, texts.get('alternateGreetings'));
  return { worldInfo, lore, firstMessage, alternateGreetings };
}

/** What every phase of one compile shares: the files, where each is, the persona, the problems found so far. */
interface CartridgeRead {
  readonly files: ReadonlyMap<string, string | Uint8Array>;
  readonly pathOf: (spec: CartridgeFileSpec) => string;
  readonly persona: LoadFromFilesOptions['persona'];
  readonly diagnostics: Diagnostic[];
}

/** Each present file decoded to text (size and encoding checked); a missing required file is an error. */
function readCartridgeTexts(read: CartridgeRead, where: string): Map<CartridgeFileKind, string> {
  const { files, pathOf, diagnostics } = read;
  const texts = new Map<CartridgeFileKind, string>();
  for (const spec of CARTRIDGE_FILES) {
    const content = files.get(spec.name);
    if (content === undefined) {
      if (spec.required && !(spec.kind === 'yare' && hasRulesScript(files))) {
        diagnostics.push(
          cartError(
            'CART_FILE_MISSING',
            `${spec.name} not found in ${where}. Create it with ${spec.purpose}, or check the folder path.`,
            fileStart(pathOf(spec)),
          ),
        );
      }
      continue;
    }
    const decoded = decodeCartridgeFile(content, pathOf(spec), spec.maxBytes, spec.name);
    if (decoded.ok) texts.set(spec.kind, decoded.text);
    else diagnostics.push(...decoded.diagnostics);
  }
  return texts;
}

/** yare.yaml: the rules, and its `ledger:` section checked against the state paths the rules declare. */
function compileRulesFile(
  read: CartridgeRead,
  yareText: string,
  yarePath: string,
): { rules?: CompiledRules; ledger?: LedgerSection } {
  const { diagnostics } = read;
  const parsed = parseYamlSafely(yareText, yarePath, { maxBytes: specOf('yare').maxBytes });
  if (!parsed.ok) {
    diagnostics.push(...parsed.diagnostics);
    return {};
  }
  const compiled = compileRules(
    { file: yarePath, doc: parsed.doc, lineCounter: parsed.lineCounter },
    {
      checkInjection: (text) => checkInjection(text)?.message,
      checkPendingInteraction: checkMinigameStart,
    },
  );
  const rules = compiled.rules;
  diagnostics.push(...compiled.diagnostics);
  const plain = toPlain(parsed.doc) as Record<string, unknown> | null;
  const checked = validateLedgerSection(plain?.ledger, {
    statePaths: rules === undefined ? [] : declaredStatePaths(rules.schema),
  });
  if (checked.ok) return { ...(rules === undefined ? {} : { rules }), ledger: checked.value };
  for (const issue of checked.issues) {
    diagnostics.push({
      severity: 'error',
      code: issue.code,
      message: `${issue.path.join('.')}: ${issue.message}`,
      place: placeAtPath(parsed.doc, issue.path, yarePath, parsed.lineCounter),
    });
  }
  return rules === undefined ? {} : { rules };
}

function readDirectives(read: CartridgeRead, text: string | undefined): Directives {
  if (text === undefined) return {};
  const path = read.pathOf(specOf('directives'));
  const parsed = parseYamlSafely(text, path, { maxBytes: specOf('directives').maxBytes });
  if (!parsed.ok) {
    read.diagnostics.push(...parsed.diagnostics);
    return {};
  }
  const checked = validateDirectives(
    { doc: parsed.doc, lineCounter: parsed.lineCounter, source: text },
    path,
    { persona: read.persona },
  );
  read.diagnostics.push(...checked.diagnostics);
  return checked.directives;
}

function readIntents(read: CartridgeRead, text: string | undefined, rules: CompiledRules): IntentInputs {
  if (text === undefined) return NO_INTENT_INPUTS;
  const path = read.pathOf(specOf('intents'));
  const parsed = parseYamlSafely(text, path, { maxBytes: specOf('intents').maxBytes });
  if (!parsed.ok) {
    read.diagnostics.push(...parsed.diagnostics);
    return NO_INTENT_INPUTS;
  }
  const source = { file: path, doc: parsed.doc, lineCounter: parsed.lineCounter, plain: toPlain(parsed.doc) };
  const checked = validateIntentInputs(source, rules);
  read.diagnostics.push(...checked.diagnostics);
  return checked.intents;
}

function readAlternateGreetings(read: CartridgeRead, text: string | undefined): string[] {
  if (text === undefined) return [];
  const file = read.pathOf(specOf('alternateGreetings'));
  const parsed = parseAlternateGreetings(text, file);
  read.diagnostics.push(...parsed.diagnostics);
  return parsed.greetings.map(
    (greeting) => proseOf(greeting, file, read.persona, read.diagnostics, 'story') ?? greeting,
  );
}

/** Without bot_name the folder's (or upload's) name is the cartridge's, in the same normal form. */
function cartridgeNameOf(
  read: CartridgeRead,
  rules: CompiledRules,
  name: string,
  yarePath: string,
): string | undefined {
  if (rules.botName !== undefined) return rules.botName;
  const named = normaliseName(name);
  if (named.ok) return named.name;
  read.diagnostics.push(
    cartError(
      'CART_BAD_FIELD',
      `yare.yaml has no bot_name, and the cartridge's name '${name}' cannot be used: ${named.message}. Set bot_name.`,
      fileStart(yarePath),
    ),
  );
  return undefined;
}

/** Where each file the cartridge has came from (optional files only when present). */
function fileNamesOf(read: CartridgeRead, yare: string): CartridgeFiles {
  const { files, pathOf } = read;
  const fileNames: { -readonly [K in keyof CartridgeFiles]: string } = { yare, lore: pathOf(specOf('lore')) };
  const optional = ['directives', 'firstMessage', 'alternateGreetings', 'intents', 'worldInfo'] as const;
  for (const kind of optional) if (files.has(specOf(kind).name)) fileNames[kind] = pathOf(specOf(kind));
  return fileNames;
}

/** The `when:` conditions of lore sections and World Info entries, checked like every expression. */
function loreConditionDiagnostics(
  rules: CompiledRules,
  lore: string,
  worldInfo: WorldInfoBook | undefined,
  files: { lore: string; worldInfo?: { file: string; text: string } },
): Diagnostic[] {
  let split: ConditionalLore;
  try {
    split = chunkConditionalLore(lore);
  } catch (error) {
    // Lore too large to chunk is reported when it is indexed; its conditions cannot be found.
    if (error instanceof LoreError) return [];
    throw error;
  }
  return compileLoreConditions(rules, split, worldInfo, files).diagnostics;
}

/** Lore and first message: persona macros, then the injection check as a warning only (story text). */
function proseOf(
  text: string | undefined,
  file: string,
  persona: Persona | undefined,
  diagnostics: Diagnostic[],
  /** `story`: text the player reads as the game's own words, in the voice of the turns (applyStoryMacros). */
  voice: 'story' | 'prompt' = 'prompt',
): string | undefined {
  if (text === undefined) return undefined;
  const expanded = voice === 'story' ? applyStoryMacros(text, persona) : applyPersonaMacros(text, persona);
  const finding = checkInjection(expanded);
  if (finding) {
    // Persona values are single lines, so the line is the written one; the column counts expanded text.
    diagnostics.push(
      cartWarning(
        'CART_INJECTION_SUSPECT',
        `This text ${finding.message} It is loaded as story content, fenced off from instructions.`,
        placeInText(expanded, finding.offset, file),
      ),
    );
  }
  return expanded;
}

/** The content hash a cartridge loaded from these files would have (what a stored version is keyed by). */
export function contentHash(files: ReadonlyMap<string, string | Uint8Array>): string {
  const hash = new Sha256();
  const encoder = new TextEncoder();
  for (const spec of CARTRIDGE_FILES) {
    const content = files.get(spec.name);
    if (content === undefined) continue;
    const bytes = typeof content === 'string' ? encoder.encode(content) : content;
    // Name and length before the bytes, so no two different file sets hash the same stream.
    hash.update(encoder.encode(`${spec.name}\0${bytes.byteLength}\0`));
    hash.update(bytes);
  }
  return hash.hex();
}
