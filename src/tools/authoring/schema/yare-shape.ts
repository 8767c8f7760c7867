// The shape of `yare.yaml` for the editor schema and the language server: the grammar the compiler's
// shape passes read their keys, required fields and allowed values from (src/core/yare/grammar.ts), so
// the editor and the compiler cannot disagree on those. test/tools/authoring/schema-agreement.test.ts runs both
// over one corpus of files.

import { type FileShape, STEP_SHAPES, YARE_GRAMMAR } from '../../../core/yare/index.ts';

export { STEP_SHAPES };

export const YARE_FILE: FileShape = YARE_GRAMMAR;
