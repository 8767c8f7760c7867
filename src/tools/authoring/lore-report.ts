// What the lore would do for a text (`mnesos lore`, the MCP tool `lore_lookup`): the World Info activation
// (every entry's decision and why, timed effects included), then the bot_lore.md sections in play by their
// `when:` condition and those a BM25 lookup of the text returns, each with why (and the sections a false
// condition keeps out). The same functions as a turn (src/engine/turn/lore.ts, world-info-turn.ts), so what this
// shows is what a turn would do.

import type { Cartridge } from '../../core/cartridge/index.ts';
import type { World } from '../../core/ledger/index.ts';
import type { Dict } from '../../core/yare/index.ts';
import { activateForTurn, loreVerdicts, lookupInPlay, sectionsInPlay } from '../../engine/turn/index.ts';

/** Characters of the text a lookup searches with (the rest is ignored). */
export const MAX_LORE_QUERY_CHARS = 500;

export interface LoreQuery {
  readonly cartridge: Cartridge;
  readonly state: Dict;
  readonly world: World;
  readonly text: string;
  /** The story so far, oldest first: player and narrator lines alternating, the player's first. */
  readonly messages?: readonly string[];
  readonly seed?: number;
}

export type LoreReport = ReturnType<typeof explainLore>;

export function explainLore(query: LoreQuery) {
  const { cartridge, state, world, text } = query;
  const verdicts = loreVerdicts(cartridge, state, world);
  const history = (query.messages ?? []).map((content, i) => ({
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content,
  }));
  const inPlay = sectionsInPlay(cartridge, verdicts, Number.MAX_SAFE_INTEGER);
  const shown = new Set(inPlay.result.chunks.map((c) => c.id));
  const lookup =
    text.trim() === ''
      ? undefined
      : lookupInPlay(cartridge, verdicts, [text.slice(0, MAX_LORE_QUERY_CHARS)], {});
  const lore = [
    ...inPlay.receipts,
    ...(lookup?.receipts ?? []).filter((r) => !shown.has(r.chunkId) || r.status !== 'included'),
  ].filter((r, i, all) => all.findIndex((o) => o.chunkId === r.chunkId && o.status === r.status) === i);
  const wi = activateForTurn(cartridge, state, history, text, query.seed ?? 0, 'normal', verdicts);
  return { worldInfo: wi?.result, chatLength: wi?.chatLength ?? history.length + 1, lore };
}

/** The report as `mnesos lore --json` prints it. */
export function loreReportJson(report: LoreReport) {
  const { worldInfo, chatLength, lore } = report;
  return {
    worldInfo:
      worldInfo === undefined
        ? null
        : {
            chatLength,
            activated: worldInfo.activated.map((a) => ({
              uid: a.entry.uid,
              comment: a.entry.comment,
              position: a.entry.position,
              reason: a.reason,
            })),
            decisions: worldInfo.decisions,
            tokens: worldInfo.tokens,
            budget: worldInfo.budget,
            timed: worldInfo.timed,
          },
    lore: lore.map((r) => ({
      id: r.chunkId,
      heading: r.heading,
      line: r.line,
      status: r.status,
      why: r.why,
    })),
  };
}

/** The report as text: each World Info decision, then each lore section, `+` in play and `-` kept out. */
export function loreReportLines(report: LoreReport): string[] {
  const { worldInfo, chatLength, lore } = report;
  const out: string[] = [];
  if (worldInfo === undefined) out.push('World Info: none (the cartridge has no world_info.json)');
  else {
    out.push(
      `World Info (chat length ${chatLength}, ${worldInfo.tokens}/${worldInfo.budget} tokens${worldInfo.overflowed ? ', budget overflowed' : ''}):`,
    );
    for (const d of worldInfo.decisions) {
      out.push(
        `  ${d.status === 'activated' ? '+' : '-'} #${d.uid}${d.comment ? ` ${d.comment}` : ''}: ${d.reason}`,
      );
    }
    for (const t of worldInfo.timed) out.push(`  ${t.kind} #${t.uid}: messages ${t.start}..${t.end}`);
  }
  const mark = (status: string) => (status === 'included' ? '+' : '-');
  out.push(
    '',
    `bot_lore.md (BM25) and the sections in play by their when: condition: ${lore.length === 0 ? 'no section matches' : ''}`,
  );
  for (const r of lore)
    out.push(`  ${mark(r.status)} line ${r.line}: ${r.heading || '(before the first heading)'}: ${r.why}`);
  return out;
}
