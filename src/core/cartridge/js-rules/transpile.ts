// `yare.ts` → JavaScript, with esbuild's transform (types are stripped; nothing is bundled or resolved, so
// an import stays an import and the sandbox decides). Syntax errors come back with the source's line:col;
// the source map lets sandbox errors in the output be placed in the TypeScript file.

import { createRequire, SourceMap } from 'node:module';

type Esbuild = typeof import('esbuild');
let esbuild: Esbuild | undefined;

/** esbuild, loaded on the first `yare.ts` only: commands and servers that never meet one skip its start-up. */
function loadEsbuild(): Esbuild {
  esbuild ??= createRequire(import.meta.url)('esbuild') as Esbuild;
  return esbuild;
}

export type TranspileResult =
  | { readonly ok: true; readonly code: string; readonly map: SourceMap }
  | { readonly ok: false; readonly errors: readonly { message: string; line: number; col: number }[] };

export function transpileTypeScript(source: string, file: string): TranspileResult {
  try {
    const out = loadEsbuild().transformSync(source, {
      loader: 'ts',
      format: 'esm',
      target: 'es2022',
      sourcemap: 'external',
      sourcefile: file,
      // No minification, no renaming: error messages name the author's own identifiers.
      minify: false,
      logLevel: 'silent',
    });
    return { ok: true, code: out.code, map: new SourceMap(JSON.parse(out.map)) };
  } catch (error) {
    const errors = (error as { errors?: { text: string; location?: { line: number; column: number } }[] })
      .errors;
    if (!Array.isArray(errors) || errors.length === 0) {
      return { ok: false, errors: [{ message: String(error), line: 1, col: 1 }] };
    }
    return {
      ok: false,
      errors: errors.map((e) => ({
        message: e.text,
        line: e.location?.line ?? 1,
        // esbuild's columns are 0-based.
        col: (e.location?.column ?? 0) + 1,
      })),
    };
  }
}

/** The TypeScript line:col (1-based) of a line:col (1-based) in the transpiled JavaScript. */
export function originalPlace(map: SourceMap, line: number, col: number): { line: number; col: number } {
  const entry = map.findEntry(line - 1, col - 1) as {
    originalLine?: number;
    originalColumn?: number;
  };
  if (typeof entry.originalLine !== 'number' || typeof entry.originalColumn !== 'number')
    return { line, col };
  return { line: entry.originalLine + 1, col: entry.originalColumn + 1 };
}
