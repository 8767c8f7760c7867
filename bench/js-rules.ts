// Rules modules (yare.ts) benchmark: loading Ember Toll from its yare.ts against loading the same rules
// as yare.yaml (the YAML its module produces), warm, median of several loads; the sandbox's cold start
// (a worker loading QuickJS); and how long a module that never ends takes to be stopped.
// Targets: a warm yare.ts load under 20× the YAML load (it adds esbuild, a worker round trip and QuickJS),
// and the endless module stopped within RULES_SCRIPT_TIME_MS + SANDBOX_GRACE_MS.
// `npx tsx bench/js-rules.ts` prints one JSON object per line.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCartridgeFromFiles } from '../src/core/cartridge/index.ts';
import {
  RULES_SCRIPT_TIME_MS,
  rulesFromScript,
  SANDBOX_GRACE_MS,
  stopRulesSandbox,
} from '../src/core/cartridge/js-rules/index.ts';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { median } from './common.ts';

type Row = Record<string, unknown>;

const TARGET_RATIO = 20;
const RUNS = 15;

function timeLoads(files: Map<string, string>): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const loaded = loadCartridgeFromFiles(files, 'bench');
    times.push(performance.now() - start);
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('; '));
  }
  return median(times);
}

export async function benchJsRules(): Promise<Row[]> {
  const dir = join(PROJECT_ROOT, 'cartridges', 'ember-toll');
  const source = readFileSync(join(dir, 'yare.ts'), 'utf8');
  const lore = readFileSync(join(dir, 'bot_lore.md'), 'utf8');
  const rows: Row[] = [];
  try {
    stopRulesSandbox();
    const coldStart = performance.now();
    const produced = rulesFromScript(source, 'ts', 'yare.ts');
    const coldMs = performance.now() - coldStart;
    if (!produced.ok) throw new Error(produced.diagnostics.map((d) => d.message).join('; '));
    rows.push({ bench: 'js_rules.cold_start', ms: Math.round(coldMs) });

    const tsMs = timeLoads(
      new Map([
        ['yare.ts', source],
        ['bot_lore.md', lore],
      ]),
    );
    const yamlMs = timeLoads(
      new Map([
        ['yare.yaml', produced.yaml],
        ['bot_lore.md', lore],
      ]),
    );
    const ratio = tsMs / yamlMs;
    rows.push({
      bench: 'js_rules.warm_load',
      yare_ts_ms: Number(tsMs.toFixed(2)),
      yare_yaml_ms: Number(yamlMs.toFixed(2)),
      ratio: Number(ratio.toFixed(2)),
      target_ratio: TARGET_RATIO,
      meets_target: ratio <= TARGET_RATIO,
    });

    const endless = performance.now();
    const stopped = rulesFromScript('for (;;) {}\nexport default {};\n', 'js', 'yare.js');
    const stoppedMs = performance.now() - endless;
    rows.push({
      bench: 'js_rules.endless_module_stopped',
      ms: Math.round(stoppedMs),
      stopped: !stopped.ok,
      target_ms: RULES_SCRIPT_TIME_MS + SANDBOX_GRACE_MS,
      meets_target: !stopped.ok && stoppedMs <= RULES_SCRIPT_TIME_MS + SANDBOX_GRACE_MS,
    });
  } finally {
    stopRulesSandbox();
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchJsRules()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
