// Which cartridge each builder draft saves into, remembered in this browser: a draft whose bot_name is a
// cartridge the player already has is refused by the server (409 name_taken) until the player says it
// joins that cartridge; once said (or once the draft's first save made the cartridge), later saves of the
// same draft go on adding versions to it without asking again.

const STORAGE_KEY = 'mnesos.builder.draftJoins';
/** Drafts remembered; the oldest are forgotten first (the server asks again for those). */
export const MAX_REMEMBERED_JOINS = 200;

type Joins = Record<string, string>;

function read(): Joins {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: Joins = {};
    for (const [draft, name] of Object.entries(parsed)) if (typeof name === 'string') out[draft] = name;
    return out;
  } catch {
    return {};
  }
}

/** The cartridge the draft saves into, when this browser knows it. */
export function joinedCartridge(draftId: string): string | undefined {
  const joins = read();
  return Object.hasOwn(joins, draftId) ? joins[draftId] : undefined;
}

export function rememberJoin(draftId: string, cartridgeName: string): void {
  const joins = read();
  delete joins[draftId];
  joins[draftId] = cartridgeName;
  const keys = Object.keys(joins);
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_REMEMBERED_JOINS))) delete joins[old];
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(joins));
  } catch {
    // Storage full or refused: the server asks again next time, nothing is lost.
  }
}
