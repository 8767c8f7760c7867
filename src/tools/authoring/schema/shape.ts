// A small declarative description of the shape of an author's YAML file: the one source from which the
// JSON Schemas (`mnesos schema`, `/v1/schemas/:kind`), the scenario-file checker, and the language server's
// key completion and hover text are all made. The rules compiler has its own checks; a test proves the two
// agree (test/authoring/schema-agreement.test.ts).

export type Shape =
  | ObjectShape
  | TaggedShape
  | { readonly kind: 'string'; readonly doc?: string; readonly enum?: readonly string[] }
  | { readonly kind: 'integer'; readonly doc?: string; readonly min?: number; readonly max?: number }
  | { readonly kind: 'number'; readonly doc?: string }
  | { readonly kind: 'boolean'; readonly doc?: string }
  | { readonly kind: 'any'; readonly doc?: string }
  | {
      readonly kind: 'array';
      readonly doc?: string;
      readonly items: Shape;
      readonly minItems?: number;
      readonly maxItems?: number;
    }
  | { readonly kind: 'union'; readonly doc?: string; readonly options: readonly Shape[] }
  /** A named shape from the document's definitions (for recursion: steps hold steps). */
  | { readonly kind: 'ref'; readonly name: string; readonly doc?: string };

export interface ObjectShape {
  readonly kind: 'object';
  readonly doc?: string;
  readonly props: Readonly<Record<string, Shape>>;
  readonly required?: readonly string[];
  /** The shape of keys not in `props` (a map of names); absent means unknown keys are refused. */
  readonly extra?: Shape;
  /** What a key of `extra` must look like, as a regular expression (anchored). */
  readonly keyPattern?: string;
  /** Unknown keys are reported as warnings rather than errors (the compiler ignores them). */
  readonly unknownIsWarning?: boolean;
}

/** A mapping whose `tag` key picks the variant (a step's `action`); each variant lists its own keys. */
export interface TaggedShape {
  readonly kind: 'tagged';
  readonly doc?: string;
  readonly tag: string;
  readonly variants: Readonly<Record<string, ObjectShape>>;
}

/** A file kind: its root shape and the named shapes it refers to. */
export interface FileShape {
  readonly title: string;
  readonly root: Shape;
  readonly definitions: Readonly<Record<string, Shape>>;
}

export const str = (doc?: string, values?: readonly string[]): Shape =>
  values ? { kind: 'string', doc, enum: values } : { kind: 'string', doc };
export const int = (doc?: string, min?: number, max?: number): Shape => ({ kind: 'integer', doc, min, max });
export const num = (doc?: string): Shape => ({ kind: 'number', doc });
export const bool = (doc?: string): Shape => ({ kind: 'boolean', doc });
export const any = (doc?: string): Shape => ({ kind: 'any', doc });
export const list = (items: Shape, doc?: string, maxItems?: number): Shape => ({
  kind: 'array',
  items,
  doc,
  maxItems,
});
export const union = (doc: string | undefined, ...options: Shape[]): Shape => ({
  kind: 'union',
  doc,
  options,
});
export const ref = (name: string, doc?: string): Shape => ({ kind: 'ref', name, doc });
export function obj(
  props: Record<string, Shape>,
  options: Omit<ObjectShape, 'kind' | 'props'> = {},
): ObjectShape {
  return { kind: 'object', props, ...options };
}

/** The shape behind a ref, through any number of refs. */
export function resolveShape(shape: Shape, file: FileShape): Shape {
  let current = shape;
  for (let hops = 0; current.kind === 'ref'; hops++) {
    if (hops > 16) throw new Error(`ref cycle at ${current.name}`);
    const next = file.definitions[current.name];
    if (!next) throw new Error(`unknown shape ${current.name}`);
    current = next;
  }
  return current;
}
