// The offline matcher and narrator on every shipped cartridge and, when present, on the cartridges of
// ../shared (content written elsewhere): every intent phrase resolves to its event with complete inputs or
// asks one precise question, and what the offline narrator tells of each event is prose — no note
// instruction, no wrapper, no field dump.
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import { chooseOffline } from '../../../src/engine/turn/offline/choose.ts';
import { narrateOffline } from '../../../src/engine/turn/offline/narration.ts';
import { directorTools, ENGINE_TOOL_NAMES } from '../../../src/engine/turn/tools.ts';
import { runEvent } from '../../../src/core/yare/interpreter.ts';
import type { EventDef } from '../../../src/core/yare/program.ts';
import { toStateValue } from '../../../src/core/yare/python.ts';
import { publicEvents } from '../../../src/core/yare/tools.ts';
import { sharedAvailable, sharedPath } from '../../helpers/shared.ts';
import { cartridgeAt, ROOT, SHARED_CARTRIDGES } from './helpers.ts';

const SHIPPED = readdirSync(resolve(ROOT, 'cartridges'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => resolve(ROOT, 'cartridges', d.name));

const FIELD_DUMP = /\b[a-z_]+\.[a-z_]+(?:\.[a-z_]+)*:\s/;
const INSTRUCTION = /(?:^|[.!?]\s+)(?:describe|narrate|remind|suggest|list|mention|convey|depict)\b/i;

function playerEvents(cartridge: Cartridge): EventDef[] {
  return publicEvents(cartridge.rules).filter((e) => !ENGINE_TOOL_NAMES.has(e.name));
}

function phrasesOf(cartridge: Cartridge, event: EventDef): string[] {
  const implied = Object.hasOwn(cartridge.intentInputs, event.name)
    ? (cartridge.intentInputs[event.name] ?? []).map((i) => i.phrase)
    : [];
  return [...event.intents, ...implied];
}

/** Inputs for a sample run: the first enum value, else the default, else a plain value of the type. */
function sampleInputs(event: EventDef): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of event.inputList) {
    if (spec.enum?.length) out[spec.name] = toStateValue(spec.enum[0]!);
    else if (!spec.hasDefault) out[spec.name] = spec.type === 'int' || spec.type === 'float' ? 1 : 'x';
  }
  return out;
}

function checkCartridge(load: () => Promise<Cartridge>) {
  it('resolves every intent phrase to its event with complete inputs, or asks one question', async () => {
    const cartridge = await load();
    const tools = directorTools(cartridge);
    // No state: the phrase is judged alone (with a state, the rules may refuse the event where the game
    // starts, which offline-lines.test.ts covers).
    const context = { intentInputs: cartridge.intentInputs };
    const problems: string[] = [];
    for (const event of playerEvents(cartridge)) {
      for (const phrase of phrasesOf(cartridge, event)) {
        const choice = chooseOffline(cartridge.rules, tools, phrase, context);
        if (choice.kind === 'call') {
          if (choice.name !== event.name) problems.push(`"${phrase}" ran ${choice.name}, not ${event.name}`);
          const missing = event.inputList.filter((s) => !s.hasDefault && !(s.name in choice.args));
          if (missing.length > 0) problems.push(`"${phrase}" left out ${missing.map((s) => s.name)}`);
        } else if (choice.reason !== 'question') {
          problems.push(`"${phrase}" got a ${choice.reason} reply: ${choice.text.split('\n')[0]}`);
        } else if (choice.text.split('?').length !== 2 || !choice.text.includes(`/${event.name} `)) {
          problems.push(`"${phrase}" asked an imprecise question: ${choice.text}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('tells every event as prose: no note instruction, no wrapper, no field dump', async () => {
    const cartridge = await load();
    const problems: string[] = [];
    for (const event of playerEvents(cartridge)) {
      const result = runEvent(cartridge.rules, cartridge.rules.initialState, event.name, sampleInputs(event));
      if (!result.ok) continue;
      const told = narrateOffline(cartridge.rules, { notes: result.notes });
      if (told.includes('[') || told.includes('((') || /SYSTEM/i.test(told))
        problems.push(`${event.name}: ${told}`);
      if (FIELD_DUMP.test(told) || told.includes('Scene:')) problems.push(`${event.name} dumps: ${told}`);
      if (INSTRUCTION.test(told)) problems.push(`${event.name} instructs: ${told}`);
    }
    expect(problems).toEqual([]);
  });
}

describe.each(SHIPPED)('shipped cartridge %s', (dir) => {
  checkCartridge(() => cartridgeAt(dir));
});

describe.skipIf(!sharedAvailable('offline matcher and narrator on the shared cartridges', 'cartridges'))(
  'shared cartridges',
  () => {
    describe.each(SHARED_CARTRIDGES)('%s', (name) => {
      checkCartridge(() => cartridgeAt(sharedPath('cartridges', name)));
    });
  },
);
