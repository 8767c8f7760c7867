// The loss report of an import: every field, decorator, macro and World Info option that was not carried
// over or behaves differently, by name, with how often and where. Printed and written next to the cartridge.

export interface LossItem {
  readonly name: string;
  readonly count: number;
  /** What happens instead. */
  readonly effect: string;
  /** The first few places (`data.alternate_greetings`, `entries.4.vectorized`). */
  readonly places: readonly string[];
}

const MAX_PLACES = 5;

export class LossReport {
  readonly #items = new Map<string, { count: number; effect: string; places: string[] }>();

  add(name: string, place: string, effect: string, count = 1): void {
    let item = this.#items.get(name);
    if (item === undefined) {
      item = { count: 0, effect, places: [] };
      this.#items.set(name, item);
    }
    item.count += count;
    if (item.places.length < MAX_PLACES && !item.places.includes(place)) item.places.push(place);
  }

  get items(): LossItem[] {
    return [...this.#items.entries()]
      .map(([name, v]) => ({ name, count: v.count, effect: v.effect, places: [...v.places] }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  get size(): number {
    return this.#items.size;
  }
}

/** The report as text: one line per item, `name ×count: effect (places)`. */
export function formatLossReport(title: string, items: readonly LossItem[]): string {
  const lines = [`# ${title}`, ''];
  if (items.length === 0) lines.push('Everything was carried over.');
  for (const item of items) {
    lines.push(`- ${item.name} ×${item.count}: ${item.effect} (${item.places.join(', ')})`);
  }
  return `${lines.join('\n')}\n`;
}
