// The web client at any length, in Chromium: sessions of 50, 1,000 and 5,000 turns (stored directly, as
// long offline games would leave them), opened and played as a phone (390×844, CPU throttled 4× through the
// DevTools protocol) and as a desktop. Each row: open → interactive (the newest turn drawn and the input
// ready), DOM elements, bytes sent to open, a keystroke's latency, Enter → the player's words shown, one more
// turn, regenerate, a swipe, undo, the tree panel, and the page's INP (the slowest interaction's event
// duration). Goals (issue 34): the 1,000- and 5,000-turn figures within 1.5× of the 50-turn ones (2× for
// DOM and bytes), INP under 200 ms on the phone at every length; each row says which goals it meets
// (`goals`). Each figure is the median of `MNESOS_BENCH_WEB_RUNS` runs (3; a fresh session and page each),
// as a loaded machine moves single runs. `MNESOS_BENCH_WEB_TURNS=50,1000` picks the lengths.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { openStore } from '../src/adapters/store/index.ts';
import { type RunningServer, startServer } from '../src/apps/server/start.ts';
import { buildWebClient } from '../src/apps/web/build.ts';
import { countingSeeds } from '../src/engine/session/seeds.ts';
import { chromiumAvailable, launchChromium } from '../test/apps/web/helpers/browser.ts';

type Store = Awaited<ReturnType<typeof openStore>>;

interface Profile {
  readonly name: 'phone' | 'desktop';
  readonly viewport: { width: number; height: number };
  readonly cpuSlowdown: number;
}

const PROFILES: readonly Profile[] = [
  { name: 'phone', viewport: { width: 390, height: 844 }, cpuSlowdown: 4 },
  { name: 'desktop', viewport: { width: 1280, height: 900 }, cpuSlowdown: 1 },
];

const LENGTHS = (process.env.MNESOS_BENCH_WEB_TURNS ?? '50,1000,5000').split(',').map(Number);
const RUNS = Math.max(1, Number(process.env.MNESOS_BENCH_WEB_RUNS ?? 3));

/** Issue 34's goals: ratios to the shortest session's figures, and INP on the phone. */
const GOAL_RATIO = 1.5;
const GOAL_RATIO_SIZE = 2;
const GOAL_PHONE_INP_MS = 200;
const SIZES = new Set(['dom_elements', 'open_kb']);

const NARRATION = (i: number) =>
  `The lantern gutters as you move on, step ${i}. **Rain** drums on the slate roofs of Lanternmere, and the ` +
  `harbour bell answers from far below.\n\nA figure in a grey coat watches from the arch, then turns away. ` +
  `*Somewhere a door closes.* The smell of tar and wet rope follows you along the quay.`;

/** A session of `turns` turns after its first message, stored directly (with a few swipes on the way). */
export async function storedSession(server: RunningServer, store: Store, turns: number): Promise<string> {
  const created = await fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cartridge: 'Lanternmere' }),
  });
  const { session } = (await created.json()) as { session: { id: string; headTurnId: string } };
  const genesis = await store.getTurn(session.id, session.headTurnId);
  let parentId = session.headTurnId;
  for (let i = 1; i <= turns; i++) {
    const versions = i % 25 === 0 ? 2 : 1;
    let last = parentId;
    for (let v = 0; v < versions; v++) {
      const appended = await store.appendTurn({
        sessionId: session.id,
        parentId,
        input: { kind: 'text', text: `I walk on along the quay (${i})` },
        narration: NARRATION(i),
        record: { kind: 'test' },
        state: genesis!.state,
        seed: i * 10 + v,
        createdAt: i,
      });
      if (!appended.ok) throw new Error(appended.reason);
      last = appended.turn.id;
    }
    parentId = last;
  }
  await fetch(`${server.url}/v1/sessions/${session.id}/head`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ turnId: parentId }),
  });
  return session.id;
}

/** Records every interaction's event duration (Event Timing), from before the page's own script runs. */
const EVENT_TIMING = `
  window.__events = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.interactionId) window.__events.push(e.duration);
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
`;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return Math.round(performance.now() - start);
}

const ready = (page: Page) =>
  page.waitForFunction(() => {
    const input = document.querySelector('[data-testid="player-input"]') as HTMLTextAreaElement | null;
    return input !== null && !input.disabled && document.querySelector('[data-testid="narration"]') !== null;
  });

/** Opens the session and measures the opening: time to interactive, bytes, DOM size. */
async function measureOpen(page: Page, cdp: CDPSession, url: string) {
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
    bytes += e.encodedDataLength;
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const open = await timed(async () => {
    await page.goto(url);
    await ready(page);
  });
  await page.waitForLoadState('networkidle');
  const dom = await page.evaluate(() => document.getElementsByTagName('*').length);
  return { open_ms: open, dom_elements: dom, open_kb: Math.round(bytes / 102.4) / 10 };
}

/** The actions after opening, each timed until the page shows its result and the input is ready again. */
async function measureActions(page: Page) {
  const input = page.getByTestId('player-input');
  await input.click();
  const keystroke = await timed(async () => {
    await page.keyboard.type('x');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  });
  await input.fill('/check_pack');
  let enter = 0;
  const turn = await timed(async () => {
    enter = await timed(async () => {
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="player-message"]', { hasText: '/check_pack' }).last().waitFor();
    });
    await ready(page);
  });
  const regenerate = await timed(async () => {
    await page.getByTestId('regenerate').click();
    await page.locator('[data-testid="swipe-position"]', { hasText: '2/2' }).last().waitFor();
    await ready(page);
  });
  const swipe = await timed(async () => {
    await page.getByTestId('swipe-prev').last().click();
    await page.locator('[data-testid="swipe-position"]', { hasText: '1/2' }).last().waitFor();
    await ready(page);
  });
  const undo = await timed(async () => {
    await page.getByTestId('undo').click();
    await page.waitForFunction(
      () =>
        ![...document.querySelectorAll('[data-testid="player-message"]')].some((e) =>
          e.textContent?.includes('/check_pack'),
        ),
    );
    await ready(page);
  });
  const tree = await timed(async () => {
    await page.getByTestId('tab-tree').click();
    await page.getByTestId('tree').waitFor();
  });
  const inp = await page.evaluate(() =>
    Math.max(0, ...(window as unknown as { __events: number[] }).__events),
  );
  return {
    keystroke_ms: keystroke,
    enter_ms: enter,
    turn_ms: turn,
    regenerate_ms: regenerate,
    swipe_ms: swipe,
    undo_ms: undo,
    tree_ms: tree,
    inp_ms: Math.round(inp),
  };
}

async function measure(browser: Browser, url: string, profile: Profile) {
  const context = await browser.newContext({ viewport: profile.viewport });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await page.addInitScript(EVENT_TIMING);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
    const opened = await measureOpen(page, cdp, url);
    return { ...opened, ...(await measureActions(page)) };
  } finally {
    await context.close();
  }
}

type Figures = Record<string, number>;

/** Each figure's median over the runs. */
function medians(runs: readonly Figures[]): Figures {
  const out: Figures = {};
  for (const key of Object.keys(runs[0] ?? {})) {
    const sorted = runs.map((r) => r[key] as number).sort((a, b) => a - b);
    out[key] = sorted[Math.floor((sorted.length - 1) / 2)] as number;
  }
  return out;
}

/**
 * Ratios of each figure to the shortest session's of the same profile (`vs_first`), and which goals the
 * row meets (`goals`: each ratio within 1.5, 2 for DOM and bytes; INP under 200 ms on the phone).
 */
interface Row {
  readonly turns: number;
  readonly profile: Profile['name'];
  readonly figures: Figures;
}

function withRatios(rows: readonly Row[]): Array<Record<string, unknown>> {
  return rows.map((row) => {
    const head = { turns: row.turns, profile: row.profile, runs: RUNS, ...row.figures };
    const goals: Record<string, boolean> = {};
    if (row.profile === 'phone') goals.inp_under_200ms = (row.figures.inp_ms as number) < GOAL_PHONE_INP_MS;
    const base = rows.find((r) => r.profile === row.profile && r.turns === LENGTHS[0]);
    if (!base || base === row) return { ...head, goals };
    const ratios: Record<string, number> = {};
    for (const [key, value] of Object.entries(row.figures)) {
      ratios[key] = Math.round((value / Math.max(1, base.figures[key] as number)) * 100) / 100;
      goals[`${key}_ratio`] = (ratios[key] as number) <= (SIZES.has(key) ? GOAL_RATIO_SIZE : GOAL_RATIO);
    }
    return { ...head, vs_first: ratios, goals };
  });
}

export async function benchWebStory(): Promise<Array<Record<string, unknown>>> {
  if (!chromiumAvailable('the web-story bench')) return [{ skipped: 'no Chromium' }];
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-web-'));
  const dist = join(dir, 'web');
  await buildWebClient(dist);
  const store = await openStore(join(dir, 'bench.sqlite'));
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    store,
    staticDir: dist,
    seeds: countingSeeds(1000),
    limits: { rateLimit: 0 },
  });
  const browser = await launchChromium();
  const rows: Row[] = [];
  try {
    for (const turns of LENGTHS) {
      for (const profile of PROFILES) {
        const runs: Figures[] = [];
        for (let run = 0; run < RUNS; run++) {
          // A session each: the actions measured leave branches behind.
          const id = await storedSession(server, store, turns);
          runs.push(await measure(browser, `${server.url}/#/play/${id}`, profile));
        }
        rows.push({ turns, profile: profile.name, figures: medians(runs) });
      }
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return withRatios(rows);
}
