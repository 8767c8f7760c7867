// A model's worst honest answer to the AI generator (issue 35): an invalid cartridge of about `chars`
// characters in the generator's file format (src/tools/authoring/builder/draft.ts) that the checker reads
// whole — a yare.yaml just under its byte limit (MAX_YARE_BYTES: a bigger one is refused before any parse)
// and under the node limit (MAX_YAML_NODES), whose events each name an unknown state path (a finding each),
// and a bot_lore.md for the rest. Used by the generator's tests and bench/generator-isolation.ts.

import { MAX_YARE_BYTES } from '../../src/core/cartridge/limits.ts';

export function invalidCartridge(chars: number): string {
  const yareChars = Math.min(chars, MAX_YARE_BYTES - 1_024);
  const head =
    '=== file: yare.yaml ===\nversion: "1.0"\nbot_name: "Flood"\nstate_schema:\n  n: { type: int, default: 0 }\nevents:\n';
  const parts: string[] = [head];
  let length = head.length;
  for (let i = 0; ; i++) {
    const event = `  e${i}:\n    steps:\n      - { action: set, var: state.missing_${i}, value: ${i} }\n      - { action: note, message: "Flood ${i} rises over the weir and the mill, and the miller's daughter counts the sacks on the loft once more." }\n`;
    if (length + event.length > yareChars) break;
    parts.push(event);
    length += event.length;
  }
  const lore = '=== file: bot_lore.md ===\n# The mill\n';
  parts.push(lore);
  length += lore.length;
  const line = 'The weir holds back the pond; when it floods, the mill wheel turns backwards.\n';
  while (length < chars) {
    parts.push(line);
    length += line.length;
  }
  return parts.join('');
}
