// Every bound of the rules language, in one place. Each has a test at the limit and just past it.

/** Nested `call` depth: an event at depth 10 may not call another one. */
export const MAX_CALL_DEPTH = 10;
/** Steps executed by one event run, counting nested calls and every loop iteration. */
export const MAX_STEPS_PER_RUN = 10_000;
/** Dice in one roll (`100d6` is allowed, `101d6` is not). */
export const MAX_DICE_COUNT = 100;
/** Sides of a die (`d10000` is allowed). */
export const MAX_DICE_SIDES = 10_000;
/** Characters in one expression (after the leading `@`). */
export const MAX_EXPRESSION_LENGTH = 1_000;
/** Nesting depth of an expression (parentheses, operators, calls, literals). */
export const MAX_EXPRESSION_DEPTH = 64;
/** Items in a list or keys in a dict. */
export const MAX_CONTAINER_SIZE = 100;
/** Nesting depth of a dict value (`{a:{b:{c:1}}}` has depth 3). */
export const MAX_DICT_DEPTH = 3;
/** Characters of a note template as written. */
export const MAX_NOTE_TEMPLATE_LENGTH = 300;
/** Characters of a note after interpolation. */
export const MAX_NOTE_LENGTH = 2_000;
/** Characters of any string value produced by an expression. */
export const MAX_STRING_LENGTH = 10_000;
/** Parameters of one macro (`params: [o, kind]`). */
export const MAX_MACRO_PARAMS = 10;
/** Levels of containment `within`, `ancestors` and `descendants` follow through a collection's parent property. */
export const MAX_CONTAINMENT_DEPTH = 16;
