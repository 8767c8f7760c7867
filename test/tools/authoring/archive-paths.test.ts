// Archive entry paths as common tools write them: `./` prefixes and the root folder entry from
// `tar -C folder .`, still refusing traversal, absolute paths and a file without a name.

import { describe, expect, it } from 'vitest';
import { ArchiveError, readArchive } from '../../../src/adapters/files/archive/index.ts';
import { entrySegments } from '../../../src/adapters/files/archive/paths.ts';
import { tarGz, zip } from '../../apps/server/archives.ts';

function refusal(run: () => unknown): ArchiveError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ArchiveError);
    return error as ArchiveError;
  }
  throw new Error('expected a refusal');
}

describe('archive entry paths', () => {
  it('the root folder entry (./ or .) has no segments; ./a/./b has two', () => {
    expect(entrySegments('./')).toEqual([]);
    expect(entrySegments('.')).toEqual([]);
    expect(entrySegments('./a/./b')).toEqual(['a', 'b']);
  });

  it('a tar.gz with ./ entries reads as the folder it was made from', () => {
    const files = readArchive(
      tarGz([
        { name: './', type: '5' },
        { name: './yare.yaml', data: 'a: 1' },
        { name: './tests/', type: '5' },
        { name: './tests/basics.yaml', data: 'scenarios: []' },
      ]),
    );
    expect([...files.keys()].sort()).toEqual(['tests/basics.yaml', 'yare.yaml']);
  });

  it('traversal behind ./ is still refused, and so is an empty name that is not the root', () => {
    expect(refusal(() => readArchive(tarGz([{ name: './../evil.yaml', data: 'x' }]))).code).toBe(
      'archive_bad_path',
    );
    expect(refusal(() => readArchive(zip([{ name: './x/../../evil', data: 'x' }]))).code).toBe(
      'archive_bad_path',
    );
    expect(refusal(() => entrySegments('')).message).toContain('empty path');
    expect(refusal(() => entrySegments('..')).code).toBe('archive_bad_path');
    expect(refusal(() => entrySegments('/./')).code).toBe('archive_bad_path');
  });

  it('a regular file named ./ (no name once the root is removed) is refused', () => {
    const error = refusal(() => readArchive(tarGz([{ name: './', data: 'x' }])));
    expect(error.code).toBe('archive_bad_path');
    expect(error.message).toContain('without a name');
  });
});
