// The work of `mnesos lore <cartridge> "<text>"`: the World Info activation the text would cause (every
// entry's decision and why, with the timed effects of --state and the `when` conditions on --state and
// --world), then the bot_lore.md sections in play by their `when:` condition and those a BM25 lookup of the
// text returns, each with why (and the sections a false condition keeps out). The same functions as a turn
// (src/engine/turn/lore.ts, src/engine/turn/world-info-turn.ts), so what this shows is what a turn would do.

import { initialWorld, loreVerdicts, lookupInPlay, sectionsInPlay } from '../../../engine/turn/index.ts';
import { activateForTurn } from '../../../engine/turn/index.ts';
import { loadCartridgeArg } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { toJsonText } from '../json-output.ts';
import { readWorldFile } from '../play/world-file.ts';
import { readStateFile } from '../state-file.ts';
import { UserError } from '../user-error.ts';

export async function runLore(
  cartridgeArg: string,
  text: string,
  flags: { message?: string[]; state?: string; world?: string; seed?: string; json?: boolean },
): Promise<void> {
  const seed = Number(flags.seed ?? '0');
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new UserError(`--seed must be a whole number, got ${flags.seed}`, EXIT.usage);
  const cartridge = await loadCartridgeArg(cartridgeArg);
  const state = readStateFile(flags.state, cartridge.rules);
  const world = flags.world === undefined ? initialWorld(cartridge) : readWorldFile(flags.world);
  const verdicts = loreVerdicts(cartridge, state, world);
  const history = (flags.message ?? []).map((content, i) => ({
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content,
  }));
  const inPlay = sectionsInPlay(cartridge, verdicts, Number.MAX_SAFE_INTEGER);
  const shown = new Set(inPlay.result.chunks.map((c) => c.id));
  const lookup = text.trim() === '' ? undefined : lookupInPlay(cartridge, verdicts, [text.slice(0, 500)], {});
  const lore = [
    ...inPlay.receipts,
    ...(lookup?.receipts ?? []).filter((r) => !shown.has(r.chunkId) || r.status !== 'included'),
  ].filter((r, i, all) => all.findIndex((o) => o.chunkId === r.chunkId && o.status === r.status) === i);
  const wi = activateForTurn(cartridge, state, history, text, seed, 'normal', verdicts);
  const worldInfo = wi?.result;
  const chatLength = wi?.chatLength ?? history.length + 1;
  if (flags.json) {
    process.stdout.write(
      `${toJsonText(
        {
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
        },
        2,
      )}\n`,
    );
    return;
  }
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
  process.stdout.write(`${out.join('\n')}\n`);
}
