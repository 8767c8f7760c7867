import { loadShipped } from '../bench/offline-lines.ts';
import { noteActs } from '../src/engine/turn/offline/note-acts.ts';
const c = await loadShipped(process.argv[2]!);
for (const e of c.rules.events.values()) console.log(e.name, JSON.stringify(noteActs(e)));
