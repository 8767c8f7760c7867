// Long games: the same whole path timed at turn ~10 and at turn BENCH_LONG_DEPTH, with a world
// that grows by one entity and one fact every turn. Turns 1–30 are played through SessionService.playTurn
// (scripted models: one Director call, one Narrator call recording `create_entity` + `add_fact`); the
// turns between are written straight through the store (the same rows a played turn writes: its record,
// state, batch, and a world snapshot whenever the session's snapshot rule asks for one), and then turns are
// played again at the bottom by a fresh SessionService, whose first turn reads the world from the store.
// Standalone: `npx tsx bench/long-game.ts`; BENCH_LONG_DEPTH overrides the depth (default 10,000).

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import Sqlite from 'better-sqlite3';
import {
  applyBatch,
  applyEvent,
  emptyWorld,
  type LedgerEvent,
  summarizeWorld,
  toWire,
  type World,
  WorldDraft,
} from '../src/core/ledger/index.ts';
import { worldPage } from '../src/core/ledger/world-page.ts';
import { DEFAULT_WORLD_PAGE_RECORDS } from '../src/apps/server/limits.ts';
import { createScriptedModels } from '../src/adapters/llm/scripted.ts';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { CartridgeLibrary } from '../src/engine/session/library.ts';
import { countingSeeds } from '../src/engine/session/seeds.ts';
import { SessionService } from '../src/engine/session/service.ts';
import {
  DEFAULT_SNAPSHOT_RULE,
  nextSnapshotProgress,
  type SnapshotProgress,
} from '../src/engine/session/world-cache.ts';
import { openStore } from '../src/adapters/store/open.ts';
import type { Store } from '../src/adapters/store/repository.ts';

const DEPTH = Number(process.env.BENCH_LONG_DEPTH ?? 10_000);
/** Turns timed at each depth. */
const TIMED = 20;
const HYDRATIONS = 200;
const RECORD_LIMIT = 64 * 1024;
/** Records per page in the compared GET /world row: fewer than the world holds at turn ~25. */
const WORLD_PAGE_COMPARED = 40;

function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
const round = (n: number, digits = 3): number => Number(n.toFixed(digits));

/** One turn's batch: a new entity and a fact about it (the world grows every turn). */
function batch(n: number): LedgerEvent[] {
  return [
    { type: 'create_entity', entity: `stranger_${n}`, name: `Stranger number ${n}`, entity_type: 'person' },
    { type: 'add_fact', subject: `stranger_${n}`, predicate: 'arrived_on_turn', value: n },
  ] as LedgerEvent[];
}

function oneTurnModels(counter: { n: number }) {
  return () => {
    counter.n += 1;
    return createScriptedModels({
      director: [{ text: 'Factual outcomes: a stranger arrives.' }],
      narrator: [
        {
          text: 'A stranger walks out of the fog and nods.',
          toolCalls: [{ name: 'record_world_changes', args: { events: batch(counter.n).map(toWire) } }],
        },
      ],
      npc: [],
    });
  };
}

export async function benchLongGame(): Promise<Array<Record<string, unknown>>> {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-long-'));
  const path = join(dir, 'long.db');
  const store: Store = await openStore(path);
  const rows: Array<Record<string, unknown>> = [];
  /** A second, read-only connection that measures the database's size as the game grows. */
  let pagesDb: Sqlite.Database | undefined;
  try {
    const library = new CartridgeLibrary(store);
    const registered = await library.registerFolder(join(PROJECT_ROOT, 'cartridges', 'lanternmere'));
    if (!registered.ok) throw new Error('the demo cartridge does not load');
    const principal = await store.createPrincipal({ name: 'bench' });
    const counter = { n: 0 };
    const service = new SessionService({
      store,
      library,
      models: oneTurnModels(counter),
      seeds: countingSeeds(1),
    });
    const { session } = await service.createSession(principal.id, {
      cartridgeVersion: registered.version.id,
      seed: 1,
    });
    // Bytes the database holds (pages in use × page size, the WAL included): what a long game costs on disk.
    const measured = new Sqlite(path, { readonly: true });
    pagesDb = measured;
    const diskBytes = (): number => {
      const pageSize = measured.pragma('page_size', { simple: true }) as number;
      const pages = measured.pragma('page_count', { simple: true }) as number;
      const free = measured.pragma('freelist_count', { simple: true }) as number;
      return (pages - free) * pageSize;
    };
    const disk = { start: diskBytes(), at1000: 0, lastStart: 0, end: 0 };
    const play = async (svc: SessionService) => {
      const started = performance.now();
      const played = await svc.playTurn(principal.id, session.id, { turn: { input: 'I wait by the road' } });
      return { ms: performance.now() - started, turn: played.turn };
    };
    // Turns 1–5 warm the process up; 6–25 are the "turn 10" window.
    let last = (await play(service)).turn;
    for (let i = 0; i < 4; i++) last = (await play(service)).turn;
    const early: number[] = [];
    for (let i = 0; i < TIMED; i++) {
      const r = await play(service);
      early.push(r.ms);
      last = r.turn;
    }
    const earlyTurnId = last.id;

    // The bulk: the rows a played turn writes (its snapshot pieces by the session's own rule), with the world
    // kept by applying each batch.
    const base = await service.worldAt(principal.id, session.id, last.id);
    if (!base.result.ok) throw new Error('the world does not read back');
    let world: World = base.result.world;
    let draft = new WorldDraft(world);
    let progress: SnapshotProgress = { sinceSnapshotChars: 0, snapshotChars: 0, sinceSnapshotTurns: 0 };
    const record = last.record;
    const writeStarted = performance.now();
    let parentId = last.id;
    /** Characters each bulk turn handed to the store (content, events, snapshot pieces). */
    const bulkChars: number[] = [];
    for (let depth = last.depth + 1; depth < DEPTH; depth++) {
      counter.n += 1;
      const events = batch(counter.n);
      // One draft between snapshots (the bench's own bookkeeping, not what it times): a table copy per
      // snapshot instead of one per turn.
      for (const [index, event] of events.entries()) applyEvent(draft, event, index, { turn: depth });
      const wire = events.map(toWire);
      const id = randomUUID();
      const next = nextSnapshotProgress(
        progress,
        {
          turnId: id,
          eventChars: wire.reduce((n, e) => n + JSON.stringify(e).length, 0),
          worldText: () => {
            world = draft.finish();
            draft = new WorldDraft(world);
            return JSON.stringify(world);
          },
        },
        DEFAULT_SNAPSHOT_RULE,
      );
      progress = next.progress;
      const appended = await store.appendTurn({
        id,
        sessionId: session.id,
        parentId,
        input: last.input,
        narration: last.narration,
        record,
        state: last.state,
        ledgerEvents: wire,
        seed: depth,
        createdAt: depth,
      });
      if (!appended.ok) throw new Error(`append failed at depth ${depth}`);
      if (next.write !== undefined) {
        const stored = await store.putSnapshotPieces(session.id, next.write);
        if (!stored.ok) throw new Error(`snapshot pieces not stored at depth ${depth}`);
      }
      parentId = appended.turn.id;
      const given =
        last.narration.length +
        JSON.stringify(last.input).length +
        JSON.stringify(record).length +
        JSON.stringify(last.state).length +
        wire.reduce((n, e) => n + JSON.stringify(e).length, 0) +
        (next.write?.pieces.reduce((n, piece) => n + piece.length, 0) ?? 0);
      bulkChars.push(given);
      if (depth === 1_000) disk.at1000 = diskBytes();
      if (depth === DEPTH - 1_001) disk.lastStart = diskBytes();
    }
    disk.end = diskBytes();
    const writeSeconds = (performance.now() - writeStarted) / 1000;

    // The bottom, played by a process that never saw the session: the first turn reads the world from the
    // store (snapshot + batches), the rest from memory.
    const fresh = new SessionService({
      store,
      library,
      models: oneTurnModels(counter),
      seeds: countingSeeds(9),
    });
    const cold = await play(fresh);
    const late: number[] = [];
    let bottom = cold.turn;
    for (let i = 0; i < TIMED; i++) {
      const r = await play(fresh);
      late.push(r.ms);
      bottom = r.turn;
    }
    const turnRatio = p50(late) / p50(early);
    rows.push({
      name: 'playTurn p50 (SessionService.playTurn: hydrate, world, runTurn, append; SQLite; scripted models)',
      depthEarly: '6–25',
      earlyMs: round(p50(early)),
      depthLate: `${DEPTH}–${DEPTH + TIMED}`,
      lateMs: round(p50(late)),
      worldEntities: counter.n,
      ratio: round(turnRatio, 2),
      target: '≤ 1.5×',
      pass: turnRatio <= 1.5,
    });
    rows.push({
      name: 'first turn of a process at the bottom (world read from the nearest snapshot + batches)',
      ms: round(cold.ms),
      note: 'informational: the cold path; later turns read the world from memory',
    });

    const hydrate = async (turnId: string) => {
      const times: number[] = [];
      for (let i = 0; i < HYDRATIONS; i++) {
        const started = performance.now();
        await store.hydrate(session.id, turnId, { messageWindow: 24, ledgerEvents: false });
        times.push(performance.now() - started);
      }
      return p50(times);
    };
    const hEarly = await hydrate(earlyTurnId);
    const hLate = await hydrate(bottom.id);
    rows.push({
      name: 'hydrate p50 (store.hydrate, window 24, as the service calls it)',
      earlyMs: round(hEarly),
      lateMs: round(hLate),
      ratio: round(hLate / hEarly, 2),
      target: '≤ 1.5×',
      pass: hLate / hEarly <= 1.5,
    });

    // GET /world's work without HTTP: the world at the turn, one page, the summary, JSON. A page's cost is
    // its records' (each is copied and encoded), so the target compares pages of one size that both worlds
    // fill (WORLD_PAGE_COMPARED records); the default page (1,000 records) is reported beside it.
    const worldRoute = async (svc: SessionService, turnId: string, limit: number) => {
      const times: number[] = [];
      let records = 0;
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        const at = await svc.worldAt(principal.id, session.id, turnId);
        if (!at.result.ok) throw new Error('world does not replay');
        const page = worldPage(at.result.world, limit, null);
        if (!page.ok) throw new Error(page.message);
        JSON.stringify({ world: page.page.world, summary: summarizeWorld(at.result.world) });
        times.push(performance.now() - started);
        records = page.page.records;
      }
      return { ms: p50(times), records };
    };
    const wEarly = await worldRoute(fresh, earlyTurnId, WORLD_PAGE_COMPARED);
    const wLate = await worldRoute(fresh, bottom.id, WORLD_PAGE_COMPARED);
    rows.push({
      name: `GET /world handler p50 (worldAt + a page of ${WORLD_PAGE_COMPARED} records + summary + JSON; no HTTP)`,
      earlyMs: round(wEarly.ms),
      lateMs: round(wLate.ms),
      records: [wEarly.records, wLate.records],
      ratio: round(wLate.ms / wEarly.ms, 2),
      target: '≤ 1.5×',
      pass: wLate.records === wEarly.records && wLate.ms / wEarly.ms <= 1.5,
    });
    const wFullEarly = await worldRoute(fresh, earlyTurnId, DEFAULT_WORLD_PAGE_RECORDS);
    const wFullLate = await worldRoute(fresh, bottom.id, DEFAULT_WORLD_PAGE_RECORDS);
    rows.push({
      name: `GET /world handler p50 with the default page (at most ${DEFAULT_WORLD_PAGE_RECORDS} records)`,
      earlyMs: round(wFullEarly.ms),
      lateMs: round(wFullLate.ms),
      records: [wFullEarly.records, wFullLate.records],
      msPerRecordLate: round(wFullLate.ms / wFullLate.records, 4),
      note: 'informational: bounded by the page size, not by depth (the early world has fewer records than a page)',
    });
    const coldService = new SessionService({ store, library, models: () => null, worldCacheSize: 0 });
    const wcEarly = await worldRoute(coldService, earlyTurnId, WORLD_PAGE_COMPARED);
    const wcLate = await worldRoute(coldService, bottom.id, WORLD_PAGE_COMPARED);
    rows.push({
      name: 'GET /world handler p50 with no world cache (every read: nearest snapshot + batches)',
      earlyMs: round(wcEarly.ms),
      lateMs: round(wcLate.ms),
      ratio: round(wcLate.ms / wcEarly.ms, 2),
      note: 'informational: bounded by the snapshot rule, grows with the world (the snapshot is parsed)',
    });

    // Storage per turn: the database's growth over the first 1,000 turns and over the last 1,000, and the
    // characters the bulk turns handed to the store.
    const firstDisk = (disk.at1000 - disk.start) / 1_000;
    const lastDisk = (disk.end - disk.lastStart) / 1_000;
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const firstChars = sum(bulkChars.slice(0, 1_000)) / 1_000;
    const lastChars = sum(bulkChars.slice(-1_000)) / 1_000;
    rows.push({
      name: 'storage per turn (database growth: pages in use × page size, WAL included; bytes)',
      first1000: Math.round(firstDisk),
      last1000: Math.round(lastDisk),
      ratio: round(lastDisk / firstDisk, 2),
      charsGivenFirst1000: Math.round(firstChars),
      charsGivenLast1000: Math.round(lastChars),
      charsRatio: round(lastChars / firstChars, 2),
      target: '≤ 1.2×',
      pass: lastDisk / firstDisk <= 1.2 && lastChars / firstChars <= 1.2,
    });
    const db = new Sqlite(path, { readonly: true });
    try {
      const biggest = db
        .prepare(
          `select max(n) as n from (
             select max(length(cast(record as blob))) as n from turn_payloads
             union all select max(length(cast(state as blob))) from turn_payloads
             union all select max(length(cast(text as blob))) from world_snapshot_pieces)`,
        )
        .get() as { n: number };
      const snapshots = db
        .prepare(
          `select count(*) as n, max(chars) as max from (
             select turn_id, sum(length(text)) as chars from world_snapshot_pieces group by turn_id
             having max(total) is not null)`,
        )
        .get() as { n: number; max: number };
      rows.push({
        name: 'largest stored row (a turn record, a state, a snapshot piece)',
        bytes: biggest.n,
        target: `≤ ${RECORD_LIMIT}`,
        pass: biggest.n <= RECORD_LIMIT,
        snapshots: snapshots.n,
        largestSnapshotChars: snapshots.max,
        bulkWriteSeconds: round(writeSeconds, 1),
      });
    } finally {
      db.close();
    }

    // Ledger apply: one turn's batch on a world of 100 entities and on one of 10,000.
    const worldOf = (n: number): World => {
      let w = emptyWorld();
      const all: LedgerEvent[] = [];
      for (let i = 1; i <= n; i++) all.push(...batch(1_000_000 + i));
      w = applyBatch(w, all, { turn: 1 });
      return w;
    };
    const applyP50 = (w: World): number => {
      const times: number[] = [];
      for (let i = 0; i < 2_000; i++) {
        const events = batch(2_000_000 + i);
        const started = performance.now();
        applyBatch(w, events, { turn: 2 });
        times.push(performance.now() - started);
      }
      return p50(times);
    };
    const small = applyP50(worldOf(100));
    const large = applyP50(worldOf(10_000));
    rows.push({
      name: 'ledger apply p50 (applyBatch, one turn: create_entity + add_fact)',
      entities100Ms: round(small, 4),
      entities10000Ms: round(large, 4),
      ratio: round(large / small, 2),
      target: '≤ 2×',
      pass: large / small <= 2,
    });
  } finally {
    pagesDb?.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchLongGame()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
