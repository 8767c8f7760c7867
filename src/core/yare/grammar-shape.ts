// A small declarative language for the shape of an author's YAML file: keys, their kinds, which are
// required, allowed values, nested shapes and the text an editor shows. The yare.yaml grammar
// (grammar.ts) is written in it, and so are the scenario and directives files (src/tools/authoring/schema).
// The builders keep their arguments' literal types, so a table written with them can also be read at type
// level: `ShapeValue` turns a shape into the TypeScript type of the data it describes (the authoring types
// of src/core/cartridge/js-rules/define.ts are made that way).

export type Shape =
  | ObjectShape
  | TaggedShape
  | StringShape
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

export interface StringShape {
  readonly kind: 'string';
  readonly doc?: string;
  readonly enum?: readonly string[];
}

export interface ObjectOptions {
  readonly doc?: string;
  readonly required?: readonly string[];
  /** The shape of keys not in `props` (a map of names); absent means unknown keys are refused. */
  readonly extra?: Shape;
  /** What a key of `extra` must look like, as a regular expression (anchored). */
  readonly keyPattern?: string;
  /** Unknown keys are reported as warnings rather than errors (the compiler ignores them). */
  readonly unknownIsWarning?: boolean;
  /**
   * Groups of keys of which one must be present: `exclusive`, exactly one (list_remove's `index` or
   * `value`); otherwise at least one (list_push's `item`, or `value`).
   */
  readonly oneRequired?: readonly OneRequired[];
}

export interface OneRequired {
  readonly keys: readonly string[];
  readonly exclusive: boolean;
}

export interface ObjectShape extends ObjectOptions {
  readonly kind: 'object';
  readonly props: Readonly<Record<string, Shape>>;
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

export const str = (doc?: string): { readonly kind: 'string'; readonly doc?: string } => ({
  kind: 'string',
  doc,
});
/** Text that must be one of `values`. */
export const oneOf = <const E extends readonly string[]>(
  values: E,
  doc?: string,
): { readonly kind: 'string'; readonly doc?: string; readonly enum: E } => ({
  kind: 'string',
  doc,
  enum: values,
});
export const int = (doc?: string, min?: number, max?: number) =>
  ({ kind: 'integer', doc, min, max }) as const;
export const num = (doc?: string) => ({ kind: 'number', doc }) as const;
export const bool = (doc?: string) => ({ kind: 'boolean', doc }) as const;
export const any = (doc?: string) => ({ kind: 'any', doc }) as const;
export const list = <const I extends Shape>(items: I, doc?: string, maxItems?: number) =>
  ({ kind: 'array', items, doc, maxItems }) as const;
export const union = <const O extends readonly Shape[]>(doc: string | undefined, ...options: O) =>
  ({ kind: 'union', doc, options }) as const;
export const ref = <const N extends string>(name: N, doc?: string) => ({ kind: 'ref', name, doc }) as const;
export function obj<
  const P extends Record<string, Shape>,
  const O extends ObjectOptions = Record<never, never>,
>(props: P, options?: O): { readonly kind: 'object'; readonly props: P } & O {
  return { kind: 'object', props, ...(options ?? ({} as O)) };
}
export function tagged<const T extends string, const V extends Record<string, ObjectShape>>(
  tag: T,
  variants: V,
  doc?: string,
): { readonly kind: 'tagged'; readonly tag: T; readonly variants: V; readonly doc?: string } {
  return { kind: 'tagged', tag, variants, doc };
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

/** The keys of an object shape, in the order the table lists them. */
export function keysOf(shape: ObjectShape): readonly string[] {
  return Object.keys(shape.props);
}

/** Plain data, as a rules file holds it. */
export type PlainData =
  | string
  | number
  | boolean
  | null
  | readonly PlainData[]
  | { readonly [key: string]: PlainData };

/**
 * The TypeScript type of the data a shape describes, `Defs` naming what its refs point at. Objects and
 * index signatures are object types, whose members TypeScript resolves on demand: that is what lets a
 * recursive grammar (steps holding steps) be read without unbounded instantiation.
 */
export type ShapeValue<S, Defs> = S extends { readonly kind: 'string'; readonly enum: infer E }
  ? E extends readonly string[]
    ? E[number]
    : string
  : S extends { readonly kind: 'string' }
    ? string
    : S extends { readonly kind: 'integer' | 'number' }
      ? number
      : S extends { readonly kind: 'boolean' }
        ? boolean
        : S extends { readonly kind: 'any' }
          ? PlainData
          : S extends { readonly kind: 'array'; readonly items: infer I }
            ? readonly ShapeValue<I, Defs>[]
            : S extends { readonly kind: 'union'; readonly options: infer O extends readonly unknown[] }
              ? ShapeValue<O[number], Defs>
              : S extends { readonly kind: 'ref'; readonly name: infer N extends keyof Defs }
                ? ShapeValue<Defs[N], Defs>
                : S extends {
                      readonly kind: 'tagged';
                      readonly tag: infer T extends string;
                      readonly variants: infer V;
                    }
                  ? { [K in keyof V]: { readonly [P in T]: K } & ObjectValue<V[K], Defs> }[keyof V]
                  : S extends { readonly kind: 'object' }
                    ? ObjectValue<S, Defs>
                    : never;

type RequiredKeys<S> = S extends { readonly required: infer R extends readonly string[] } ? R[number] : never;

/** An object shape's value: its required keys, its optional ones, and its map of names when it has one. */
export type ObjectValue<S, Defs> = S extends { readonly props: infer P }
  ? {
      readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: ShapeValue<P[K], Defs>;
    } & {
      readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: ShapeValue<P[K], Defs>;
    } & (S extends { readonly extra: infer X }
        ? { readonly [name: string]: ShapeValue<X, Defs> | ShapeValue<P[keyof P], Defs> | undefined }
        : unknown)
  : never;
