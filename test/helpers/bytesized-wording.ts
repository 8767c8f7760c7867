// How each ByteSized32-SP port (test/cartridges/bytesized/README.md) words the property values its game's
// observations report, so test/helpers/bytesized-gold.ts can check, for every step of a gold playthrough,
// that each reported (object, property, value) of `gold.json`'s `reports` is in the port's notes. Exact
// text only: a wording is a phrase the notes must hold (or, for a value the port words by saying nothing,
// the phrase of the other value, which they must not hold), with the object's `#id` in it or in the
// `within` text that starts the listing item the phrase must be in.

/** The notes must hold `says` (`saysNot`: must not), inside a listing item that starts at `within` if given. */
export type Wording =
  | { readonly says: string; readonly within?: string }
  | { readonly saysNot: string; readonly within?: string };

/** The object whose property is worded: its id, its name (the game's where the facts hold it, else the
 * port's), and everything reported of it. */
export interface Reported {
  readonly id: string;
  readonly name: string;
  readonly props: Readonly<Record<string, unknown>>;
  /** The name of another object, the same way (for properties that list other objects). */
  readonly nameOf: (id: string) => string;
}

type WordingOf = (value: unknown, thing: Reported) => Wording;

/** A port words a flag by saying `phrase` when it is set and nothing when it is not. */
function flag(phrase: (thing: Reported) => string, within?: (thing: Reported) => string): WordingOf {
  return (value, thing) => {
    const at = within === undefined ? {} : { within: within(thing) };
    return value ? { says: phrase(thing), ...at } : { saysNot: phrase(thing), ...at };
  };
}

/** `<prefix> it` closing the list of what a container holds, in its own listing item. */
const containerPrefix: WordingOf = (value, thing) => ({
  says: ` ${String(value)} it`,
  within: `#${thing.id} `,
});

const RESOURCE: ReadonlyMap<unknown, string> = new Map([
  ['sun', 'has sunshine all year'],
  ['water', 'has a large river'],
  ['wind', 'has steady wind'],
]);

/** An English list as the ports write one (`join(items, ', ', ' and ')`). */
function englishList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Per game (the folder of its `gold.json`), per reported property: how the port (and its plain twin) words it. */
export const WORDINGS: Readonly<Record<string, Readonly<Record<string, WordingOf>>>> = {
  'clean-energy': {
    resource: (value, thing) => ({
      says: `#${thing.id} ${RESOURCE.get(value) ?? `has ${String(value)}`}`,
    }),
    capacity: (value, thing) => ({ says: `#${thing.id} gives ${String(value)}kW` }),
    efficiency: (value, thing) => ({
      says: `kW at ${Math.round(Number(value) * 100)}%`,
      within: `#${thing.id} gives`,
    }),
  },
  sunburn: {
    // The whole list up to its full stop, so a way too many is caught as well as one missing.
    exits: (value, thing) => ({
      says: `ways lead to ${englishList((value as string[]).map((id) => `the ${thing.nameOf(id)} #${id}`))}.`,
    }),
  },
  'make-campfire': {
    article: (value, thing) => ({ says: `${String(value)} ${thing.name} #${thing.id}` }),
    burning: flag((thing) => `#${thing.id} that is on fire`),
    burn_left: (value, thing) => flag(() => `#${thing.id} that has burnt`)(Number(value) < 0, thing),
  },
  'refrigerate-food': {
    // The port's fridge is always on, as the game's starts: like the game, it says so by not saying "off".
    on: (value, thing) => flag(() => `#${thing.id} that is off`)(!value, thing),
    open: (value, thing) => ({ says: `#${thing.id} that is ${value ? 'open' : 'closed'}` }),
    serving: (value, thing) => ({
      says: `${String(value)} ${thing.props.spoiled ? 'spoiled ' : ''}${thing.name} #${thing.id}`,
    }),
    spoiled: flag((thing) => `spoiled ${thing.name} #${thing.id}`),
    prefix: containerPrefix,
  },
  'boil-water': {
    on: (value, thing) => ({ says: `#${thing.id} that is ${value ? 'on' : 'off'}` }),
    prefix: containerPrefix,
  },
  dishwasher: {
    finished: flag((thing) => `#${thing.id} with a blinking green light`),
    on: flag(
      () => ' that is on',
      (thing) => `#${thing.id} `,
    ),
    open: (value, thing) => ({ says: ` that is ${value ? 'open' : 'closed'}`, within: `#${thing.id} ` }),
    dirty: (value, thing) => ({ says: `${value ? 'dirty' : 'clean'} ${thing.name} #${thing.id}` }),
    mess: (value, thing) => ({ says: `pieces of ${String(value)}`, within: `#${thing.id} with ` }),
    prefix: containerPrefix,
  },
};

/** The listing items of the notes that start at `within`: from it to the next `; ` or `. ` (or the note's end). */
function itemsAt(notes: readonly string[], within: string): string[] {
  const items: string[] = [];
  for (const note of notes) {
    for (let at = note.indexOf(within); at >= 0; at = note.indexOf(within, at + 1)) {
      const ends = ['; ', '. '].map((end) => note.indexOf(end, at)).filter((end) => end >= 0);
      items.push(note.slice(at, ends.length > 0 ? Math.min(...ends) : undefined));
    }
  }
  return items;
}

/** Why the notes do not word the value as the port should, or `undefined` when they do. */
export function wordingMissing(notes: readonly string[], wording: Wording): string | undefined {
  const places = wording.within === undefined ? notes : itemsAt(notes, wording.within);
  const where = wording.within === undefined ? '' : ` after "${wording.within}"`;
  if (wording.within !== undefined && places.length === 0) return `nothing starts with "${wording.within}"`;
  if ('says' in wording)
    return places.some((text) => text.includes(wording.says)) ? undefined : `no "${wording.says}"${where}`;
  return places.some((text) => text.includes(wording.saysNot))
    ? `says "${wording.saysNot}"${where}`
    : undefined;
}
