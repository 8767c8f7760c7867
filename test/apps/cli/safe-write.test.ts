// Files written where told, and nowhere else (src/adapters/files/safe-write.ts): the safe writer itself and
// every command that writes (`explore --write-failures`, `test --bless`, `new`, `pack`, `export`, `import`,
// `generate`), each with planted links — absolute, relative `../`, dangling, a link as the target folder
// itself, a link in an intermediate folder — and a file the command did not write (kept without --force).
// After each refusal the file outside is unchanged and nothing was written through the link.

import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendInside,
  prepareFolder,
  UnsafeWriteError,
  writeInside,
  writeNamedFile,
} from '../../../src/adapters/files/index.ts';
import { FIRST_ANSWER, REPAIR_ANSWER } from '../../tools/authoring/builder/drafts.ts';
import { ROOT, runCliInProcess, workspaces } from './helpers.ts';

const workspace = workspaces();
const KEEPER = resolve(ROOT, 'test/fixtures/cartridges/explore-keeper');
const MINIMAL = resolve(ROOT, 'templates/minimal');
const OUTSIDE_TEXT = 'the user’s own file, outside the target folder\n';

/** A workspace with a file outside the target folder that nothing may touch. */
function setup() {
  const ws = workspace();
  const outsideDir = join(ws.dir, 'outside');
  mkdirSync(outsideDir);
  const outside = join(outsideDir, 'precious.txt');
  writeFileSync(outside, OUTSIDE_TEXT);
  const untouched = () => {
    expect(readFileSync(outside, 'utf8')).toBe(OUTSIDE_TEXT);
    expect(readdirSync(outsideDir)).toEqual(['precious.txt']);
  };
  return { ...ws, outside, outsideDir, untouched };
}

function refusal(run: () => unknown): UnsafeWriteError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UnsafeWriteError);
    return error as UnsafeWriteError;
  }
  throw new Error('the write was not refused');
}

describe('the safe writer', () => {
  it('writes a new file, creating the folders between', () => {
    const { dir } = setup();
    const path = writeInside(join(dir, 'target'), 'a/b/c.txt', 'hello');
    expect(readFileSync(path, 'utf8')).toBe('hello');
    expect(path).toBe(join(dir, 'target', 'a', 'b', 'c.txt'));
  });

  it.each([
    ['an absolute link', (outside: string) => outside],
    ['a relative ../ link', () => '../outside/precious.txt'],
    ['a dangling link', () => 'nowhere/at/all.txt'],
  ])('refuses the file when it is %s, even with force', (_what, target) => {
    const { dir, outside, untouched } = setup();
    const folder = join(dir, 'target');
    mkdirSync(folder);
    symlinkSync(target(outside), join(folder, 'out.txt'));
    for (const force of [false, true]) {
      const error = refusal(() => writeInside(folder, 'out.txt', 'overwritten', { force }));
      expect(error.code).toBe('link');
      expect(error.message).toContain(`${join(folder, 'out.txt')} is a symbolic link`);
    }
    untouched();
    expect(lstatSync(join(folder, 'out.txt')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
  });

  it('refuses a link as the target folder itself (unless the user named it: trustFolder)', () => {
    const { dir, outsideDir, untouched } = setup();
    const folder = join(dir, 'target');
    symlinkSync(outsideDir, folder);
    expect(refusal(() => writeInside(folder, 'new.txt', 'x')).code).toBe('link');
    expect(refusal(() => prepareFolder(folder)).code).toBe('link');
    untouched();
    // A folder the user named may be their link; what is below it is still checked.
    writeInside(folder, 'new.txt', 'x', { trustFolder: true });
    expect(readFileSync(join(outsideDir, 'new.txt'), 'utf8')).toBe('x');
  });

  it('refuses a link in an intermediate folder, absolute or relative', () => {
    const { dir, outsideDir, untouched } = setup();
    const folder = join(dir, 'target');
    mkdirSync(join(folder, 'tests'), { recursive: true });
    symlinkSync(outsideDir, join(folder, 'tests', 'abs'));
    symlinkSync('../../outside', join(folder, 'tests', 'rel'));
    for (const via of ['abs', 'rel']) {
      const error = refusal(() => writeInside(folder, `tests/${via}/precious.txt`, 'x', { force: true }));
      expect(error.code).toBe('link');
      expect(error.message).toContain(join(folder, 'tests', via));
    }
    untouched();
  });

  it('refuses a path that climbs out of the folder', () => {
    const { dir, untouched } = setup();
    expect(refusal(() => writeInside(join(dir, 'target'), '../outside/precious.txt', 'x')).code).toBe(
      'outside',
    );
    expect(refusal(() => writeInside(join(dir, 'target'), '/etc/passwd', 'x')).code).toBe('outside');
    untouched();
  });

  it('keeps a file it did not write unless forced or owned; replaces it whole', () => {
    const { dir } = setup();
    const folder = join(dir, 'target');
    writeInside(folder, 'f.txt', 'mine');
    const error = refusal(() => writeInside(folder, 'f.txt', 'new'));
    expect(error.code).toBe('exists');
    expect(error.message).toContain('give --force to replace it');
    expect(readFileSync(join(folder, 'f.txt'), 'utf8')).toBe('mine');
    writeInside(folder, 'f.txt', 'owned', { owns: (b) => b.toString() === 'mine' });
    expect(readFileSync(join(folder, 'f.txt'), 'utf8')).toBe('owned');
    writeInside(folder, 'f.txt', 'forced', { force: true });
    expect(readFileSync(join(folder, 'f.txt'), 'utf8')).toBe('forced');
    // No temporary file is left beside it.
    expect(readdirSync(folder)).toEqual(['f.txt']);
  });

  it('refuses a folder or a pipe where the file goes', () => {
    const { dir } = setup();
    mkdirSync(join(dir, 'target', 'f.txt'), { recursive: true });
    expect(refusal(() => writeInside(join(dir, 'target'), 'f.txt', 'x', { force: true })).code).toBe(
      'not-file',
    );
  });

  it('appends through the same checks', () => {
    const { dir, outside, untouched } = setup();
    const folder = join(dir, 'target');
    appendInside(folder, 'log.md', 'one\n');
    appendInside(folder, 'log.md', 'two\n');
    expect(readFileSync(join(folder, 'log.md'), 'utf8')).toBe('one\ntwo\n');
    symlinkSync(outside, join(folder, 'linked.md'));
    expect(refusal(() => appendInside(folder, 'linked.md', 'x')).code).toBe('link');
    untouched();
  });

  it('a named file: the file itself may not be a link; an existing one needs force', () => {
    const { dir, outside, untouched } = setup();
    symlinkSync(outside, join(dir, 'out.zip'));
    expect(refusal(() => writeNamedFile(join(dir, 'out.zip'), 'x', { force: true })).code).toBe('link');
    untouched();
  });
});

describe('every command that writes', () => {
  it('explore --write-failures: a planted link (absolute, ../, dangling) or the folder as a link is refused', async () => {
    const { dir, outside, outsideDir, untouched } = setup();
    const args = ['explore', KEEPER, '--runs', '20', '--depth', '20', '--seed', '7', '--json'];
    const clean = await runCliInProcess([...args, '--write-failures', 'clean'], { cwd: dir });
    expect(clean.code).toBe(1);
    const names = readdirSync(join(dir, 'clean'));
    expect(names.length).toBeGreaterThanOrEqual(3);
    // Run again: the files explore wrote are its own, replaced without --force.
    expect((await runCliInProcess([...args, '--write-failures', 'clean'], { cwd: dir })).code).toBe(1);

    for (const [label, target] of [
      ['abs', outside],
      ['rel', '../outside/precious.txt'],
      ['dangling', 'missing.txt'],
    ] as const) {
      const folder = join(dir, label);
      mkdirSync(folder);
      symlinkSync(target, join(folder, names[0]!));
      const run = await runCliInProcess([...args, '--write-failures', label, '--force'], { cwd: dir });
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stderr).toContain(`${join(label, names[0]!)} is a symbolic link`);
      expect(lstatSync(join(folder, names[0]!)).isSymbolicLink()).toBe(true);
    }
    symlinkSync(outsideDir, join(dir, 'linked'));
    const linked = await runCliInProcess([...args, '--write-failures', 'linked'], { cwd: dir });
    expect(linked.stderr).toContain('linked is a symbolic link');
    untouched();

    // A file of the user's at a failure's name is kept without --force, replaced with it.
    mkdirSync(join(dir, 'mine'));
    writeFileSync(join(dir, 'mine', names[0]!), 'my notes\n');
    const kept = await runCliInProcess([...args, '--write-failures', 'mine'], { cwd: dir });
    expect(kept.stderr).toContain('was not written by this command; give --force');
    expect(readFileSync(join(dir, 'mine', names[0]!), 'utf8')).toBe('my notes\n');
    expect((await runCliInProcess([...args, '--write-failures', 'mine', '--force'], { cwd: dir })).code).toBe(
      1,
    );
    expect(readFileSync(join(dir, 'mine', names[0]!), 'utf8')).toContain('# Written by mnesos explore');
  }, 120_000);

  it('test --bless: transcripts as a link (intermediate folder) or a linked transcript are refused', async () => {
    const { dir, outside, outsideDir, untouched } = setup();
    const game = join(dir, 'game');
    cpSync(MINIMAL, game, { recursive: true });
    const transcripts = join(game, 'tests', 'transcripts');
    const stem = readdirSync(transcripts)[0]!;
    const file = readdirSync(join(transcripts, stem))[0]!;
    // Re-blessing replaces the scenario's own transcript.
    expect((await runCliInProcess(['test', 'game', '--bless'], { cwd: dir })).code).toBe(0);

    rmSync(join(transcripts, stem, file));
    symlinkSync(outside, join(transcripts, stem, file));
    const linkedFile = await runCliInProcess(['test', 'game', '--bless', '--force'], { cwd: dir });
    expect(linkedFile.code).toBe(1);
    expect(linkedFile.stderr).toContain('is a symbolic link');

    rmSync(join(transcripts, stem), { recursive: true });
    symlinkSync('../../../outside', join(transcripts, stem));
    const linkedFolder = await runCliInProcess(['test', 'game', '--bless'], { cwd: dir });
    expect(linkedFolder.stderr).toContain(`${join(transcripts, stem)} is a symbolic link`);
    rmSync(join(transcripts, stem));
    rmSync(transcripts, { recursive: true });
    symlinkSync(outsideDir, transcripts);
    const linkedTranscripts = await runCliInProcess(['test', 'game', '--bless'], { cwd: dir });
    expect(linkedTranscripts.stderr).toContain(`${transcripts} is a symbolic link`);
    untouched();

    // A file there that is not this scenario's transcript is kept without --force.
    rmSync(transcripts);
    mkdirSync(join(transcripts, stem), { recursive: true });
    writeFileSync(join(transcripts, stem, file), 'not a transcript\n');
    const kept = await runCliInProcess(['test', 'game', '--bless'], { cwd: dir });
    expect(kept.stderr).toContain('give --force to replace it');
    expect(readFileSync(join(transcripts, stem, file), 'utf8')).toBe('not a transcript\n');
    expect((await runCliInProcess(['test', 'game', '--bless', '--force'], { cwd: dir })).code).toBe(0);
    expect(readFileSync(join(transcripts, stem, file), 'utf8')).toMatch(/^# /);
  }, 120_000);

  it('new: a link as the folder (to an empty folder, or dangling) is refused', async () => {
    const { dir, untouched } = setup();
    mkdirSync(join(dir, 'empty'));
    symlinkSync(join(dir, 'empty'), join(dir, 'game'));
    symlinkSync('nowhere', join(dir, 'dangling'));
    for (const name of ['game', 'dangling']) {
      const run = await runCliInProcess(['new', name], { cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`${name} is a symbolic link`);
    }
    expect(readdirSync(join(dir, 'empty'))).toEqual([]);
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
    untouched();
    expect((await runCliInProcess(['new', 'real'], { cwd: dir })).code).toBe(0);
    expect(existsSync(join(dir, 'real', '.schemas'))).toBe(true);
  }, 60_000);

  it('pack and export: a linked output is refused; an existing one is kept without --force', async () => {
    const { dir, outside, untouched } = setup();
    cpSync(MINIMAL, join(dir, 'game'), { recursive: true });
    symlinkSync(outside, join(dir, 'game.zip'));
    expect((await runCliInProcess(['pack', 'game', '--force'], { cwd: dir })).stderr).toContain(
      'game.zip is a symbolic link',
    );
    symlinkSync('../outside/precious.txt', join(dir, 'card.json'));
    expect(
      (await runCliInProcess(['export', 'game', '--card', 'card.json', '--force'], { cwd: dir })).stderr,
    ).toContain('card.json is a symbolic link');
    untouched();

    writeFileSync(join(dir, 'world.json'), 'mine');
    const kept = await runCliInProcess(['export', 'game', '--world', 'world.json'], { cwd: dir });
    expect(kept.stderr).toContain('give --force to replace it');
    expect(readFileSync(join(dir, 'world.json'), 'utf8')).toBe('mine');
    expect(
      (await runCliInProcess(['export', 'game', '--world', 'world.json', '--force'], { cwd: dir })).code,
    ).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'world.json'), 'utf8'))).toHaveProperty('entries');

    expect((await runCliInProcess(['pack', 'game', '-o', 'g.zip'], { cwd: dir })).code).toBe(0);
    const again = await runCliInProcess(['pack', 'game', '-o', 'g.zip'], { cwd: dir });
    expect(again.stderr).toContain('g.zip already exists');
    expect((await runCliInProcess(['pack', 'game', '-o', 'g.zip', '--force'], { cwd: dir })).code).toBe(0);
  }, 60_000);

  it('import: the folder as a link, or a linked world_info.json in a cartridge, is refused', async () => {
    const { dir, outside, outsideDir, untouched } = setup();
    cpSync(MINIMAL, join(dir, 'game'), { recursive: true });
    const world = JSON.stringify({
      entries: { 0: { uid: 0, key: ['tower'], content: 'The tower is old.' } },
    });
    writeFileSync(join(dir, 'book.json'), world);
    symlinkSync(outside, join(dir, 'game', 'world_info.json'));
    const linked = await runCliInProcess(['import', 'book.json', 'game', '--force'], { cwd: dir });
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain('world_info.json is a symbolic link');
    symlinkSync(outsideDir, join(dir, 'linkedgame'));
    const folder = await runCliInProcess(['import', 'book.json', 'linkedgame'], { cwd: dir });
    expect(folder.stderr).toContain('linkedgame is a symbolic link');
    untouched();
  }, 60_000);

  it('generate: the folder as a link is refused before the model is asked; a linked file with --force too', async () => {
    const { dir, outside, outsideDir, untouched, file } = setup();
    symlinkSync(outsideDir, join(dir, 'mill'));
    const refused = await runCliInProcess(['generate', 'A mill pond.', 'mill'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('mill is a symbolic link');
    const script = file(
      'script.json',
      JSON.stringify({ director: [{ text: FIRST_ANSWER }, { text: REPAIR_ANSWER }] }),
    );
    mkdirSync(join(dir, 'pond'));
    symlinkSync(outside, join(dir, 'pond', 'yare.yaml'));
    const linked = await runCliInProcess(
      ['generate', 'A mill pond.', 'pond', '--llm-script', script, '--force'],
      {
        cwd: dir,
      },
    );
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain('yare.yaml is a symbolic link');
    untouched();
  }, 60_000);
});
