// The project paths a comment in src/ names: `docs/…`, `test/…` and `src/…` paths (a `#anchor` or a
// `:line` after one is not part of it) and top-level Markdown files (`README.md`). A comment is a `//` line
// or a `/* … */` block of a source file; each path is found with its file:line, so a dangling one can be
// named where it is. test/architecture/comment-paths.test.ts checks that every one exists.

import { readFileSync } from 'node:fs';

export interface NamedPath {
  /** Project-relative path of the file the comment is in. */
  readonly file: string;
  readonly line: number;
  /** The path as named, without an anchor (`docs/yare.md` for `docs/yare.md#invariants`). */
  readonly path: string;
}

// A `//` comment to the end of its line, or a `/* … */` block (no nesting in JavaScript). A `//` inside a
// string (`'http://…'`) is read as a comment too: harmless, since a URL's path follows a host, not a space.
const COMMENT = /\/\/[^\n]*|\/\*(?:[^*]|\*(?!\/))*\*\//g;
// A path of the project: one of its top folders, then name characters; not the tail of a longer path
// (`../docs/x`, `ggml/docs/x`) and ending on a name character (a sentence's full stop is not part of it).
const PATH = /(?<![\w./-])((?:docs|test|src)\/[\w./-]*[\w-]|[A-Z][A-Z0-9_-]*\.md)(?![\w/])/g;

/** The paths the comments of `text` (the file `file`) name. */
export function commentPaths(file: string, text: string): NamedPath[] {
  const found: NamedPath[] = [];
  for (const comment of text.matchAll(COMMENT)) {
    for (const named of comment[0].matchAll(PATH)) {
      // A glob (`test/apps/web/*.test.ts`) names no one file.
      if (named[1]!.includes('*')) continue;
      const at = comment.index + named.index;
      found.push({ file, line: text.slice(0, at).split('\n').length, path: named[1]! });
    }
  }
  return found;
}

/** The paths named in the comments of each file (project-relative) under `root`. */
export function commentPathsOf(root: string, files: readonly string[]): NamedPath[] {
  return files.flatMap((file) => commentPaths(file, readFileSync(`${root}/${file}`, 'utf8')));
}
