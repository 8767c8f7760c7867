// `prompt_directives.yaml`: a mapping of `director`, `npc` and `narrator` to plain text, and `picture_style`,
// the style line of a scene's picture (src/core/media/picture-prompt.ts; docs/voices.md).
// The older key `npc_brain` is read as `npc` with a warning. Each value gets the persona macros, then the
// per-directive cap, then the injection check (after substitution, so a persona cannot smuggle text in);
// the combined cap comes last.

import { type Document, isMap, isScalar, isSeq, type LineCounter, type Node as YamlNode } from 'yaml';
import type { Diagnostic, SourcePlace } from '../diagnostics.ts';
import { didYouMean } from '../yare/index.ts';
import { cartError, cartWarning, fileStart } from './diagnostics.ts';
import { checkInjection } from './injection.ts';
import { MAX_DIRECTIVE_CHARS, MAX_TOTAL_DIRECTIVE_CHARS } from './limits.ts';
import { applyPersonaMacros, type Persona } from './persona.ts';
import { codePointLength } from './text.ts';
import { placeOf } from './yaml.ts';

export type DirectiveRole = 'director' | 'npc' | 'narrator' | 'picture_style';

export interface Directives {
  readonly director?: string;
  readonly npc?: string;
  readonly narrator?: string;
  /** Not sent to a model: the style line of a picture's prompt. */
  readonly picture_style?: string;
}

/** A parsed YAML document (with positions; `source` lets a finding point inside a value), or plain data. */
export type DirectivesInput =
  | { readonly doc: Document; readonly lineCounter: LineCounter; readonly source?: string }
  | { readonly plain: unknown };

export interface ValidateDirectivesOptions {
  readonly persona?: Persona;
}

const ROLES: readonly DirectiveRole[] = ['director', 'npc', 'narrator', 'picture_style'];
const LEGACY_NPC_KEY = 'npc_brain';

interface Entry {
  readonly key: string;
  readonly value: unknown;
  readonly keyPlace: SourcePlace;
  readonly valuePlace: SourcePlace;
  /** Where the value's source text starts, and the text, to place an injection finding exactly. */
  readonly locate?: (probe: string) => SourcePlace | undefined;
}

export function validateDirectives(
  input: DirectivesInput,
  file: string,
  options: ValidateDirectivesOptions = {},
): { directives: Directives; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const entries = readEntries(input, file, diagnostics);
  const directives: { -readonly [K in DirectiveRole]?: string } = {};
  const seenAt = new Map<DirectiveRole, string>();
  let total = 0;

  for (const entry of entries) {
    const role = roleOf(entry, diagnostics);
    if (!role) continue;
    const earlier = seenAt.get(role);
    if (earlier !== undefined) {
      diagnostics.push(
        cartError(
          'CART_DIRECTIVE_CONFLICT',
          `'${entry.key}' and '${earlier}' both set the ${role} directive. Keep only '${role}'.`,
          entry.keyPlace,
        ),
      );
      continue;
    }
    seenAt.set(role, entry.key);
    const read = readDirective(entry, options.persona);
    total += read.length;
    if (read.ok) directives[role] = read.text;
    else diagnostics.push(read.problem);
  }

  if (total > MAX_TOTAL_DIRECTIVE_CHARS) {
    diagnostics.push(
      cartError(
        'CART_DIRECTIVES_TOO_LONG',
        `The directives have ${total} characters together; the limit is ${MAX_TOTAL_DIRECTIVE_CHARS}. Shorten them.`,
        entries[0]?.keyPlace ?? fileStart(file),
      ),
    );
  }
  return { directives, diagnostics };
}

/** One directive's text (persona macros applied) and its length, or what is wrong with it. */
function readDirective(
  entry: Entry,
  persona: ValidateDirectivesOptions['persona'],
): { ok: true; text: string; length: number } | { ok: false; problem: Diagnostic; length: number } {
  if (typeof entry.value !== 'string') {
    const problem = cartError(
      'CART_DIRECTIVE_NOT_STRING',
      `Directive '${entry.key}' must be plain text, but it is ${describe(entry.value)}. ` +
        `Write it as \`${entry.key}: |\` followed by indented text.`,
      entry.valuePlace,
    );
    return { ok: false, problem, length: 0 };
  }
  const text = applyPersonaMacros(entry.value, persona);
  const length = codePointLength(text);
  if (length > MAX_DIRECTIVE_CHARS) {
    const problem = cartError(
      'CART_DIRECTIVE_TOO_LONG',
      `Directive '${entry.key}' has ${length} characters; the limit is ${MAX_DIRECTIVE_CHARS}. Shorten it.`,
      entry.valuePlace,
    );
    return { ok: false, problem, length };
  }
  const finding = checkInjection(text);
  if (finding) {
    const probe = text.slice(finding.offset, finding.offset + 16).split('\n')[0] ?? '';
    const place = entry.locate?.(probe) ?? entry.valuePlace;
    return {
      ok: false,
      problem: cartError('CART_INJECTION', `Directive '${entry.key}' ${finding.message}`, place),
      length,
    };
  }
  return { ok: true, text, length };
}

function roleOf(entry: Entry, diagnostics: Diagnostic[]): DirectiveRole | undefined {
  const role = ROLES.find((r) => r === entry.key);
  if (role) return role;
  if (entry.key === LEGACY_NPC_KEY) {
    diagnostics.push(
      cartWarning(
        'CART_DIRECTIVE_RENAMED',
        `'${LEGACY_NPC_KEY}' is the old name of the 'npc' directive; it is read as 'npc'. Rename the key.`,
        entry.keyPlace,
      ),
    );
    return 'npc';
  }
  diagnostics.push(
    cartError(
      'CART_UNKNOWN_DIRECTIVE',
      `Unknown directive '${entry.key}'. The directives are ${ROLES.join(', ')}.${didYouMean(entry.key, [...ROLES, LEGACY_NPC_KEY])}`,
      entry.keyPlace,
    ),
  );
  return undefined;
}

function readEntries(input: DirectivesInput, file: string, diagnostics: Diagnostic[]): Entry[] {
  if ('plain' in input) return plainEntries(input.plain, file, diagnostics);
  const { doc, lineCounter, source } = input;
  const root = doc.contents as YamlNode | null;
  if (root === null || (isScalar(root) && root.value === null)) return [];
  if (!isMap(root)) {
    diagnostics.push(notAMapping(placeOf(root, file, lineCounter)));
    return [];
  }
  const entries: Entry[] = [];
  for (const pair of root.items) {
    const keyNode = pair.key as YamlNode | null;
    const valueNode = pair.value as YamlNode | null;
    const keyPlace = placeOf(keyNode ?? root, file, lineCounter);
    const valuePlace = valueNode?.range ? placeOf(valueNode, file, lineCounter) : keyPlace;
    const range = valueNode?.range;
    entries.push({
      key: isScalar(keyNode) ? String(keyNode.value) : String(keyNode),
      value: isScalar(valueNode) ? valueNode.value : (valueNode ?? null),
      keyPlace,
      valuePlace,
      locate:
        source !== undefined && range
          ? (probe) => {
              const at = probe === '' ? -1 : source.slice(range[0], range[1]).indexOf(probe);
              return at === -1 ? undefined : placeOf(range[0] + at, file, lineCounter);
            }
          : undefined,
    });
  }
  return entries;
}

function plainEntries(plain: unknown, file: string, diagnostics: Diagnostic[]): Entry[] {
  if (plain === null || plain === undefined) return [];
  if (typeof plain !== 'object' || Array.isArray(plain)) {
    diagnostics.push(notAMapping(fileStart(file)));
    return [];
  }
  const place = fileStart(file);
  return Object.keys(plain).map((key) => ({
    key,
    value: (plain as Record<string, unknown>)[key],
    keyPlace: place,
    valuePlace: place,
  }));
}

function notAMapping(place: SourcePlace): Diagnostic {
  return cartError(
    'CART_NOT_A_MAPPING',
    'prompt_directives.yaml must be a YAML mapping of director, npc and narrator to text.',
    place,
  );
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (isMap(value)) return 'a mapping';
  if (isSeq(value)) return 'a list';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `a ${typeof value}`;
}
