// The builder in headless Chromium, end to end on a real server (SQLite, scripted models, the built
// client): a cartridge made from the empty template, an error shown at the right line while typing (a
// squiggle and a problem naming yare.yaml:line:col), fixed, tried, saved as a version, kept across a
// reload, played; the generator run with a scripted model that writes three errors and repairs them,
// its draft opened in the builder; the download loaded back; keyboard paths; the builder's chunk is not
// loaded by the other screens.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import type { ModelSet } from '../../../src/adapters/llm/types.ts';
import { readArchive } from '../../../src/adapters/files/archive/index.ts';
import { type RunningServer, startServer } from '../../../src/apps/server/start.ts';
import { countingSeeds } from '../../../src/engine/session/seeds.ts';
import { buildWebClient } from '../../../src/apps/web/build.ts';
import { FIRST_ANSWER, FIXED_YARE, REPAIR_ANSWER } from '../../tools/authoring/builder/drafts.ts';
import { chromiumAvailable, launchChromium, screenshot } from './helpers/browser.ts';

const chromium = chromiumAvailable('the builder browser tests');

/** The rules typed into the empty template; line 17 holds `var: state.player.hp`. */
const RULES = `version: "1.0"
bot_name: "Pond Test"
state_schema:
  player:
    visibility: public
    hp: { type: int, default: 10, min: 0, max: 10 }
    wet: { type: bool, default: false }
events:
  swim:
    description: "Swim across the pond."
    intents: ["swim", "swim across"]
    steps:
      - action: set
        var: temp.r
        value: "@ roll(1d20)"
      - action: mutate
        var: state.player.hp
        op: sub
        value: 1
      - action: note
        message: "[SYSTEM LOG: rolled {temp.r}. Describe the cold water.]"
`;
const HP_LINE = 17;
/** The first check starts the checker's worker thread (from sources under vitest): allow it a while. */
const CHECKED = { timeout: 30_000 };
/** A generation runs in the generator's worker, started by the first one (from sources under tsx: seconds). */
const GENERATED = { timeout: 30_000 };
/** A test that waits for checks may take longer than the default 30 s on a loaded shared machine. */
const SLOW_TEST_MS = 90_000;

let distDir: string;
let dbDir: string;
let server: RunningServer;
let browser: Browser;
let page: Page;
let models: ModelSet;
const requested: string[] = [];

beforeAll(async () => {
  if (!chromium) return;
  distDir = mkdtempSync(join(tmpdir(), 'mnesos-web-dist-'));
  dbDir = mkdtempSync(join(tmpdir(), 'mnesos-web-builder-'));
  await buildWebClient(distDir);
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: join(dbDir, 'builder.sqlite'),
    models: () => models,
    modelMode: 'online',
    authorMode: true,
    staticDir: distDir,
    seeds: countingSeeds(1000),
    limits: { rateLimit: 100_000 },
  });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('request', (r) => requested.push(r.url()));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (distDir) rmSync(distDir, { recursive: true, force: true });
  if (dbDir) rmSync(dbDir, { recursive: true, force: true });
});

const yareEditor = () => page.locator('[data-file="yare.yaml"]');
const textOf = async (testId: string) => (await page.getByTestId(testId).first().textContent()) ?? '';

/** The 1-based line of the first error squiggle in the yare editor (-1 when there is none). */
async function squiggleLine(): Promise<number> {
  return yareEditor().evaluate((content) => {
    const mark = content.querySelector('.cm-lintRange-error');
    const line = mark?.closest('.cm-line');
    return line ? [...content.querySelectorAll('.cm-line')].indexOf(line) + 1 : -1;
  });
}

describe.runIf(chromium)('the builder', () => {
  it('is a separate chunk: the library does not load it', async () => {
    await page.goto(server.url);
    await expect.poll(() => page.getByTestId('cartridge-item').count()).toBeGreaterThan(0);
    expect(requested.filter((u) => /\/assets\/builder-/.test(u))).toEqual([]);
    await page.getByRole('link', { name: 'Builder' }).click();
    await expect.poll(() => requested.some((u) => /\/assets\/builder-[^/]+\.js$/.test(u))).toBe(true);
  });

  it(
    'creates a draft from the empty template, shows an error at its line while typing, and clears it',
    async () => {
      await page.getByTestId('new-draft-name').fill('Pond Test');
      await page.getByTestId('new-draft-template').selectOption('empty');
      await page.getByTestId('new-draft-create').click();
      await expect.poll(() => page.url(), GENERATED).toMatch(/#\/builder\/[^/]+$/);
      await expect.poll(() => textOf('check-state'), CHECKED).toBe('Valid');

      await yareEditor().click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.insertText(RULES);
      await expect.poll(() => textOf('check-state'), CHECKED).toBe('Valid');
      // Typing one letter after `hp` on line 16 makes an unknown path: the squiggle is on that line.
      await page.getByTestId('try-event').fill(''); // move focus away and back, as an author does
      await yareEditor()
        .locator('.cm-line')
        .nth(HP_LINE - 1)
        .click();
      await page.keyboard.press('End');
      await page.keyboard.type('p');
      await expect.poll(() => squiggleLine(), CHECKED).toBe(HP_LINE);
      await expect.poll(() => textOf('check-state'), CHECKED).toBe('1 error(s)');
      const problem = page.getByTestId('problem').first();
      expect(await problem.textContent()).toMatch(
        new RegExp(`^yare\\.yaml:${HP_LINE}:14: .*hpp.*\\[YARE_UNKNOWN_PATH\\]`),
      );
      expect(await page.getByTestId('save-version').isDisabled()).toBe(true);
      await screenshot(page, 'builder-01-error');

      // Keyboard: the problem is a button; Enter puts the cursor on the error's line in the editor and the
      // focus there (the cursor is first moved away, to line 1).
      await yareEditor().locator('.cm-line').first().click();
      await problem.focus();
      await page.keyboard.press('Enter');
      await expect
        .poll(() => yareEditor().locator('.cm-activeLine').textContent())
        .toContain('state.player.hpp');
      await expect.poll(() => yareEditor().evaluate((el) => el === document.activeElement)).toBe(true);

      await page.keyboard.press('End');
      await page.keyboard.press('Backspace');
      await expect.poll(() => textOf('check-state'), CHECKED).toBe('Valid');
      expect(await squiggleLine()).toBe(-1);
    },
    SLOW_TEST_MS,
  );

  it(
    'completes state paths from the rules as you type',
    async () => {
      await yareEditor()
        .locator('.cm-line')
        .nth(HP_LINE - 1)
        .click();
      await page.keyboard.press('End');
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.press('ControlOrMeta+End');
      await page.keyboard.insertText('      - action: set\n        var: state.player');
      await page.keyboard.type('.');
      const options = page.locator('.cm-tooltip-autocomplete li');
      await expect
        .poll(() => options.allTextContents())
        .toEqual([expect.stringContaining('hp'), expect.stringContaining('wet')]);
      await page.keyboard.press('Escape');
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.insertText(RULES);
      await expect.poll(() => textOf('check-state'), CHECKED).toBe('Valid');
      // Hovering a state path shows what the rules say of it.
      const point = await yareEditor().evaluate((content, line) => {
        const el = content.querySelectorAll('.cm-line')[line - 1]!;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = node.textContent!.indexOf('state.player.hp');
          if (at === -1) continue;
          const range = document.createRange();
          range.setStart(node, at + 'state.player.h'.length);
          range.setEnd(node, at + 'state.player.hp'.length);
          const box = range.getBoundingClientRect();
          return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
        }
        return null;
      }, HP_LINE);
      expect(point).not.toBeNull();
      await page.mouse.move(point!.x, point!.y);
      const tip = page.locator('.builder-hover');
      await expect.poll(() => tip.textContent(), CHECKED).toContain('state.player.hp — type int');
      await page.mouse.move(0, 0);
    },
    SLOW_TEST_MS,
  );

  it('tries an event with a seed: the dice and the diff', async () => {
    await page.getByTestId('try-event').fill('swim');
    await page.getByTestId('try-state').fill('{"player": {"hp": 4}}');
    await page.getByTestId('try-seed').fill('7');
    await page.getByTestId('try-run').click();
    const result = page.getByTestId('try-result');
    await expect.poll(() => result.getByTestId('trace-roll').count()).toBe(1);
    expect(await result.getByTestId('trace-roll').textContent()).toMatch(
      /^roll\(1d20\): 1d20 → \[\d+\] = \d+$/,
    );
    expect(await page.getByTestId('try-change').allTextContents()).toEqual(['state.player.hp: 4 → 3']);
    expect(await result.getByTestId('trace-notes').textContent()).toContain('Describe the cold water');
    await screenshot(page, 'builder-02-try');
  });

  it('explores the draft: the report of mnesos explore, violations and coverage', async () => {
    await page.getByTestId('explore-runs').fill('5');
    await page.getByTestId('explore-depth').fill('5');
    await page.getByTestId('explore-run').click();
    const report = page.getByTestId('explore-report');
    await expect.poll(() => report.count(), CHECKED).toBe(1);
    expect(await report.textContent()).toMatch(/5 runs of up to 5 steps, seed 1: 25 steps, \d+ events/);
    expect(await report.textContent()).toContain('None found.');
    expect(await page.getByTestId('explore-coverage').textContent()).toMatch(
      /^events 1\/1, branches 0\/0, steps 3\/3, notes 1\/1/,
    );
    await screenshot(page, 'builder-02b-explore');
  });

  it(
    'keeps the draft across a reload, saves it as a version and test-plays it',
    async () => {
      // Ctrl-S saves at once: with the page's timers stopped (the 400 ms pause never ends), the save is
      // still sent.
      await expect.poll(() => textOf('save-state'), CHECKED).toBe('Saved');
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1000);
      await yareEditor().click();
      await page.keyboard.press('ControlOrMeta+End');
      await page.keyboard.insertText('# saved with the keyboard\n');
      expect(await textOf('save-state')).toBe('Unsaved changes');
      const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes('/v1/builder/drafts/'));
      await page.keyboard.press('ControlOrMeta+s');
      expect((await put).postData()).toContain('# saved with the keyboard');
      await page.clock.resume();
      await expect.poll(() => textOf('save-state'), CHECKED).toBe('Saved');
      await page.reload();
      await expect.poll(() => yareEditor().textContent()).toContain('bot_name: "Pond Test"');
      await expect.poll(() => textOf('check-state'), CHECKED).toBe('Valid');

      // Keyboard: the file tabs move with the arrow keys.
      await page.getByTestId('file-tab-yare.yaml').focus();
      await page.keyboard.press('ArrowRight');
      await expect
        .poll(() => page.getByTestId('file-tab-bot_lore.md').getAttribute('aria-selected'))
        .toBe('true');
      await page.keyboard.press('ArrowLeft');

      // Renaming the draft: type a name and leave the field with Tab.
      await page.getByTestId('draft-name').fill('Pond draft');
      await page.keyboard.press('Tab');
      await expect.poll(() => textOf('builder-message')).toBe('Renamed to Pond draft.');

      await page.getByTestId('save-version').click();
      await expect.poll(() => textOf('builder-message')).toContain('Saved as a new version: Pond Test');

      models = createScriptedModels(
        {
          director: [{ text: 'Describe the swim.' }],
          narrator: [{ text: 'You swim through the cold pond.' }],
        },
        'builder-e2e',
      );
      await page.getByTestId('test-play').click();
      await expect.poll(() => page.url()).toContain('#/play/');
      // The game is the draft's: its first message is the empty template's, its state the rules typed here.
      await expect
        .poll(() => page.locator('[data-testid="narration"] .md').first().textContent())
        .toContain('The story begins.');
      await expect.poll(() => page.getByTestId('stat-player.hp').count()).toBe(1);
      const input = page.getByTestId('player-input');
      await expect.poll(() => input.isEnabled()).toBe(true);
      await input.fill('I swim across');
      await input.press('Enter');
      await expect
        .poll(() => page.locator('[data-testid="narration"] .md').last().textContent())
        .toContain('You swim through the cold pond.');
      await screenshot(page, 'builder-03-played');
    },
    SLOW_TEST_MS,
  );

  it(
    'runs the generator: three errors found, repaired, the valid draft opened in the builder',
    async () => {
      models = createScriptedModels({ director: [{ text: FIRST_ANSWER }, { text: REPAIR_ANSWER }] }, 'gen');
      await page.goto(`${server.url}/#/builder`);
      await page.getByTestId('generate-requirements').fill('A mill pond with a swim and a wheel puzzle.');
      await page.getByTestId('generate-run').click();
      await expect.poll(() => page.url(), GENERATED).toMatch(/#\/builder\/[^/]+$/);
      await expect.poll(() => textOf('check-state'), CHECKED).toBe('Valid');
      await expect.poll(() => yareEditor().textContent()).toContain('bot_name: "Mill Pond"');
      expect(await page.getByTestId('draft-name').inputValue()).toBe('Mill Pond');
      const transcript = page.getByTestId('transcript');
      expect(await transcript.textContent()).toContain('The checker found 3 error(s)');
      await screenshot(page, 'builder-04-generated');
    },
    SLOW_TEST_MS,
  );

  it(
    'changes the draft with the generator: the request and the draft go to the model, its answer replaces the rules',
    async () => {
      const changed = FIXED_YARE.replace(
        '    dry: { type: bool, default: true }\n',
        '    dry: { type: bool, default: true }\n    cold: { type: int, default: 0, min: 0, max: 5 }\n',
      );
      expect(changed).not.toBe(FIXED_YARE);
      const refine = createScriptedModels(
        { director: [{ text: `=== file: yare.yaml ===\n${changed}` }] },
        'refine',
      );
      models = refine;
      await page.getByTestId('refine').locator('summary').click();
      await page.getByTestId('refine-request').fill('Track how cold the player is.');
      await page.getByTestId('refine-run').click();
      await expect
        .poll(() => textOf('refine-progress'), GENERATED)
        .toBe('Done after 1 round(s): the draft is valid.');
      await expect.poll(() => yareEditor().textContent()).toContain('cold: { type: int');
      // The model was asked with the change request and the draft as it was.
      const asked = refine.director.requests[0]?.messages[0]?.content ?? '';
      expect(asked).toContain('Track how cold the player is.');
      expect(asked).toContain(FIXED_YARE);
      await expect.poll(() => textOf('check-state'), CHECKED).toBe('Valid');
      // The lore was sent as it was and kept.
      await page.getByTestId('file-tab-bot_lore.md').click();
      expect(await page.locator('[data-file="bot_lore.md"]').textContent()).toContain('Mill Pond');
      await page.getByTestId('file-tab-yare.yaml').click();
    },
    SLOW_TEST_MS,
  );

  it('downloads a zip the loader accepts', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-zip').click(),
    ]);
    expect(download.suggestedFilename()).toBe('Mill-Pond.zip');
    const path = await download.path();
    const files = readArchive(new Uint8Array(readFileSync(path)));
    expect([...files.keys()].sort()).toEqual([
      'bot_lore.md',
      'first-message.md',
      'prompt_directives.yaml',
      'yare.yaml',
    ]);
    expect(loadCartridgeFromFiles(files, 'downloaded').ok).toBe(true);
  });

  it('downloads the open file alone, and shows the mini-game reference', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-file').click(),
    ]);
    expect(download.suggestedFilename()).toBe('yare.yaml');
    const text = readFileSync(await download.path(), 'utf8');
    expect(text).toContain('bot_name: "Mill Pond"');
    expect(text).toContain('cold: { type: int');

    await page.getByTestId('minigame-reference').locator('summary').click();
    const docs = page.getByTestId('minigame-doc');
    await expect.poll(() => docs.count()).toBeGreaterThanOrEqual(3);
    const lightsOut = docs.filter({ hasText: 'lights_out' });
    expect(await lightsOut.textContent()).toMatch(/grid_size \(int \d+–\d+/);
  });

  it(
    'opens a cartridge of the library in the builder as a new draft',
    async () => {
      await page.goto(`${server.url}/#/builder`);
      const choices = page.getByTestId('edit-cartridge').locator('option');
      await expect.poll(() => choices.allTextContents()).toContainEqual('Pond Test');
      await page.getByTestId('edit-cartridge').selectOption({ label: 'Pond Test' });
      await page.getByTestId('edit-cartridge-open').click();
      await expect.poll(() => page.url()).toMatch(/#\/builder\/[^/]+$/);
      await expect.poll(() => yareEditor().textContent()).toContain('bot_name: "Pond Test"');
      await expect.poll(() => textOf('check-state'), CHECKED).toBe('Valid');
    },
    SLOW_TEST_MS,
  );

  it(
    'never overwrites a save made in another tab: asks, and keeps this tab’s text when told to',
    async () => {
      const other = await page.context().newPage();
      try {
        await other.goto(page.url());
        const otherYare = other.locator('[data-file="yare.yaml"]');
        await expect.poll(() => other.getByTestId('check-state').textContent(), CHECKED).toBe('Valid');
        await otherYare.click();
        await other.keyboard.press('ControlOrMeta+End');
        await other.keyboard.type('# from the other tab\n');
        await expect.poll(() => other.getByTestId('save-state').textContent(), CHECKED).toBe('Saved');

        await yareEditor().click();
        await page.keyboard.press('ControlOrMeta+End');
        await page.keyboard.type('# from this tab\n');
        await expect.poll(() => page.getByTestId('draft-conflict').count(), CHECKED).toBe(1);
        expect(await textOf('save-state')).toBe('Not saved');
        await page.getByTestId('conflict-mine').click();
        await expect.poll(() => textOf('save-state'), CHECKED).toBe('Saved');
        expect(await page.getByTestId('draft-conflict').count()).toBe(0);

        await other.reload();
        await expect.poll(() => otherYare.textContent()).toContain('# from this tab');
        expect(await otherYare.textContent()).not.toContain('# from the other tab');
      } finally {
        await other.close();
      }
    },
    SLOW_TEST_MS,
  );

  it('deletes a draft after confirming, and lists the rest', async () => {
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByTestId('delete-draft').click();
    await expect.poll(() => page.url()).toMatch(/#\/builder$/);
    await expect
      .poll(() => page.getByTestId('draft-item').allTextContents())
      .toEqual([expect.stringContaining('Mill Pond'), expect.stringContaining('Pond draft')]);
  });
});
