import { loadCartridge } from '../src/adapters/files/index.ts';
import { chooseOffline } from '../src/engine/turn/offline/choose.ts';
import { directorTools } from '../src/engine/turn/tools.ts';
import { labelOf } from '../bench/offline-lines.ts';
const [dir, ...lines] = process.argv.slice(2);
const loaded = await loadCartridge(dir!);
if (!loaded.ok) { console.log(JSON.stringify(loaded)); process.exit(1); }
const c = loaded.cartridge;
const tools = directorTools(c);
for (const line of lines) {
  const t0 = performance.now();
  const choice = chooseOffline(c.rules, tools, line, { state: c.rules.initialState as any, intentInputs: c.intentInputs, lore: c.lore });
  const ms = (performance.now() - t0).toFixed(2);
  console.log(`${line.padEnd(40)} → ${labelOf(choice).padEnd(28)} ${ms}ms ${choice.kind === 'reply' ? JSON.stringify(choice.text.slice(0, 140)) : ''}`);
}
