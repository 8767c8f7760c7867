// Every `docs/…`, `test/…` and `src/…` path (and top-level Markdown file) a comment in src/ names exists, so
// a comment that points somewhere can be followed; a dangling one is named at its file:line.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/adapters/project-root.ts';
import { commentPaths, commentPathsOf } from './comment-paths.ts';
import { sourceFiles } from './imports.ts';

describe('paths named in comments', () => {
  it('exist, every one of them', () => {
    const named = commentPathsOf(PROJECT_ROOT, sourceFiles(PROJECT_ROOT, 'src'));
    // The check reads real comments: the sources name many paths.
    expect(named.length).toBeGreaterThan(100);
    const dangling = named
      .filter((n) => !existsSync(join(PROJECT_ROOT, n.path)))
      .map((n) => `${n.file}:${n.line}: ${n.path}`);
    expect(dangling).toEqual([]);
  });

  it('are found in line and block comments, without anchors, full stops or longer paths around them', () => {
    const text = [
      "const url = 'https://example.org/docs/x.md';",
      '// See docs/yare.md#invariants and test/apps/web/sse.test.ts.',
      '/* block',
      ' * (src/core/sse.ts), README.md; not ../docs/gone.md, ggml/docs/gguf.md or test/apps/web/*.test.ts',
      ' */',
      "const notAComment = 'docs/missing.md';",
    ].join('\n');
    expect(commentPaths('src/a.ts', text)).toEqual([
      { file: 'src/a.ts', line: 2, path: 'docs/yare.md' },
      { file: 'src/a.ts', line: 2, path: 'test/apps/web/sse.test.ts' },
      { file: 'src/a.ts', line: 4, path: 'src/core/sse.ts' },
      { file: 'src/a.ts', line: 4, path: 'README.md' },
    ]);
  });

  it('name a missing file as missing', () => {
    const [named] = commentPaths('src/a.ts', '// docs/offline.md describes it');
    expect(named?.path).toBe('docs/offline.md');
    expect(existsSync(join(PROJECT_ROOT, named!.path))).toBe(false);
  });
});
