// The work of `mnesos lore <cartridge> "<text>"`: the World Info activation the text would cause (every
// entry's decision and why, with the timed effects of --state), then the bot_lore.md sections a BM25
// lookup of the text returns.

import { activateWorldInfo, buildLoreIndex, readWorldInfoState } from '../../../core/lore/index.ts';
import { loadCartridgeArg } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { toJsonText } from '../json-output.ts';
import { readStateFile } from '../state-file.ts';
import { UserError } from '../user-error.ts';

export async function runLore(
  cartridgeArg: string,
  text: string,
  flags: { message?: string[]; state?: string; seed?: string; json?: boolean },
): Promise<void> {
  const seed = Number(flags.seed ?? '0');
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new UserError(`--seed must be a whole number, got ${flags.seed}`, EXIT.usage);
  const cartridge = await loadCartridgeArg(cartridgeArg);
  const state = readStateFile(flags.state, cartridge.rules);
  const history = flags.message ?? [];
  const lookup = text.trim() === '' ? undefined : buildLoreIndex(cartridge.lore).lookup([text.slice(0, 500)]);
  const book = cartridge.worldInfo;
  let worldInfo: ReturnType<typeof activateWorldInfo> | undefined;
  let chatLength = history.length + 1;
  if (book !== undefined) {
    const before = readWorldInfoState(state);
    if (before !== undefined) chatLength = before.messages + 2;
    worldInfo = activateWorldInfo(book, {
      messages: [text, ...[...history].reverse()],
      chatLength,
      timed: before?.effects ?? [],
      seed,
    });
  }
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
          lore: lookup?.chunks.map((c) => ({ id: c.id, heading: c.heading, line: c.line })) ?? [],
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
  out.push(
    '',
    `bot_lore.md (BM25): ${lookup === undefined || lookup.chunks.length === 0 ? 'no section matches' : ''}`,
  );
  for (const c of lookup?.chunks ?? [])
    out.push(`  line ${c.line}: ${c.heading || '(before the first heading)'}`);
  process.stdout.write(`${out.join('\n')}\n`);
}
