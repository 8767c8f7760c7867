// Lore and World Info coverage, with the engine's own selection: a lore section is activated when its
// `when:` held on a state the exploration reached (the verdicts a turn computes, `loreVerdicts`) or when a
// lookup of a note the rules showed finds it (`lookupInPlay`, as the Director's lookups do); a World Info
// entry when its activation on such a note (`activateForTurn`) takes it. The notes are probed once each,
// at most MAX_LORE_PROBES of them.

import type { ConditionVerdicts } from '../../../core/cartridge/index.ts';
import type { World } from '../../../core/ledger/index.ts';
import type { Dict } from '../../../core/yare/index.ts';
import {
  activateForTurn,
  DEFAULT_TURN_LIMITS,
  initialWorld,
  loreOf,
  loreVerdicts,
  lookupInPlay,
} from '../../../engine/turn/index.ts';
import type { Game } from './game.ts';
import { MAX_LORE_PROBES, MAX_PROBE_CHARS } from './limits.ts';
import type { Coverage } from './types.ts';

export class LoreProbe {
  private readonly heldSections = new Set<string>();
  private readonly heldEntries = new Set<number>();
  private readonly probes = new Map<string, ConditionVerdicts | undefined>();
  private readonly conditional: boolean;
  private latest: ConditionVerdicts | undefined;
  private readonly hasLore: boolean;

  constructor(private readonly game: Game) {
    const lore = loreOf(game.cartridge);
    this.hasLore = lore.index.chunks.length > 0 || game.cartridge.worldInfo !== undefined;
    this.conditional = lore.conditional.length > 0 || game.cartridge.worldInfo !== undefined;
  }

  /** A state the exploration reached: the conditions judged on it. */
  observeState(state: Dict, world: World): void {
    if (!this.conditional) return;
    const verdicts = loreVerdicts(this.game.cartridge, state, world);
    this.latest = verdicts;
    for (const [id, v] of verdicts.sections.entries()) if (v.held) this.heldSections.add(id);
    for (const [uid, v] of verdicts.worldInfo.entries()) if (v.held) this.heldEntries.add(uid);
  }

  /** Notes a step showed: each distinct one becomes a probe, with the verdicts of the state it was shown on. */
  observeNotes(notes: readonly string[]): void {
    if (!this.hasLore) return;
    for (const note of notes) {
      if (this.probes.size >= MAX_LORE_PROBES) return;
      const text = note.slice(0, MAX_PROBE_CHARS);
      if (text.trim() !== '' && !this.probes.has(text)) this.probes.set(text, this.latest);
    }
  }

  finish(start: Dict): Pick<Coverage, 'lore' | 'worldInfo'> {
    const cartridge = this.game.cartridge;
    const lore = loreOf(cartridge);
    const found = new Set(this.heldSections);
    const entries = new Set<number>();
    const startVerdicts = loreVerdicts(cartridge, start, initialWorld(cartridge));
    const options = { k: DEFAULT_TURN_LIMITS.loreK, tokenBudget: DEFAULT_TURN_LIMITS.loreTokenBudget };
    for (const [text, seen] of this.probes) {
      const verdicts = seen ?? startVerdicts;
      for (const chunk of lookupInPlay(cartridge, verdicts, [text], options).result.chunks)
        found.add(chunk.id);
      const wi = activateForTurn(cartridge, start, [], text, 0, 'normal', verdicts);
      for (const a of wi?.result.activated ?? []) entries.add(a.entry.uid);
    }
    const chunks = lore.index.chunks;
    const missedSections = chunks
      .filter((c) => !found.has(c.id))
      .map((c) => ({
        place: { file: cartridge.files.lore, line: c.line, col: 1 },
        what: `lore section ${c.heading === '' ? '(before the first heading)' : JSON.stringify(c.heading)} never activated`,
      }));
    const book = cartridge.worldInfo?.entries ?? [];
    const missedEntries = book
      .filter((e) => !entries.has(e.uid) && !this.heldEntries.has(e.uid) && !e.disable)
      .map((e) => ({
        uid: e.uid,
        what: `World Info entry ${e.uid}${e.comment === '' ? '' : ` (${e.comment})`} never activated`,
      }));
    const enabled = book.filter((e) => !e.disable).length;
    return {
      lore: {
        activated: chunks.length - missedSections.length,
        total: chunks.length,
        missed: missedSections,
      },
      worldInfo: { activated: enabled - missedEntries.length, total: enabled, missed: missedEntries },
    };
  }
}
