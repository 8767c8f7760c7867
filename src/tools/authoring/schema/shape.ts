// The declarative language the editor schemas are written in lives in the core beside the yare.yaml
// grammar it first served (src/core/yare/grammar-shape.ts): the scenario and directives shapes use it
// too. The JSON Schemas (`mnesos schema`, `/v1/schemas/:kind`), the scenario-file checker, and the
// language server's key completion and hover text are all made from such shapes.

export {
  any,
  bool,
  type FileShape,
  int,
  list,
  num,
  type ObjectShape,
  obj,
  oneOf,
  ref,
  resolveShape,
  type Shape,
  str,
  type TaggedShape,
  tagged,
  union,
} from '../../../core/yare/index.ts';
