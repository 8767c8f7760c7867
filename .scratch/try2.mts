import { loadSource, type LineSource } from '../bench/offline-lines.ts';
import { chooseOffline } from '../src/engine/turn/offline/choose.ts';
import { directorTools } from '../src/engine/turn/tools.ts';
import { labelOf } from '../bench/offline-lines.ts';
import { knownEntries } from '../src/engine/turn/offline/known.ts';
const [src, patch, ...lines] = process.argv.slice(2);
const [kind, ref] = src!.split(':');
const source = (kind === 'shared' ? { kind, path: ref } : { kind, name: ref }) as LineSource;
const c = await loadSource(source);
const tools = directorTools(c);
const state = structuredClone(c.rules.initialState) as any;
const p = JSON.parse(patch || '{}'); for (const k of Object.keys(p)) state[k] = { ...state[k], ...p[k] };
for (const line of lines) {
  const choice = chooseOffline(c.rules, tools, line, { state, intentInputs: c.intentInputs, lore: c.lore, opening: c.firstMessage, entries: knownEntries(c.worldInfo) });
  console.log(`${line.padEnd(44)} → ${labelOf(choice).padEnd(30)} ${choice.kind === 'reply' ? JSON.stringify(choice.text.slice(0, 110)) : ''}`);
}
