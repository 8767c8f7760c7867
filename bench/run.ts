// `npm run bench`: every benchmark, one JSON object per line (machine-readable). Each module exports an
// async function returning rows; targets are compared as ratios or thresholds inside the rows, never in
// unit tests.

type Bench = () => Promise<Array<Record<string, unknown>>>;

const suites: Array<[string, () => Promise<Bench>]> = [
  ['yare', async () => (await import('./yare.ts')).benchYare],
  ['lore', async () => (await import('./lore.ts')).benchLore],
  ['world-info', async () => (await import('./world-info.ts')).benchWorldInfo],
  ['memory', async () => (await import('./memory.ts')).benchMemory],
  ['injection', async () => (await import('./injection.ts')).benchInjection],
  ['js-rules', async () => (await import('./js-rules.ts')).benchJsRules],
  ['ledger', async () => (await import('./ledger.ts')).benchLedger],
  ['fidelity', async () => (await import('./fidelity.ts')).benchFidelity],
  ['turn', async () => (await import('./turn.ts')).benchTurn],
  ['store', async () => (await import('./store.ts')).benchStore],
  ['long-game', async () => (await import('./long-game.ts')).benchLongGame],
  ['server-memory', async () => (await import('./server-memory.ts')).benchServerMemory],
  ['server', async () => (await import('./server.ts')).benchServer],
  ['prompt-cache', async () => (await import('./prompt-cache.ts')).benchPromptCache],
  ['model-client', async () => (await import('./model-client.ts')).benchModelClient],
  ['startup', async () => (await import('./startup.ts')).benchStartup],
  ['builder', async () => (await import('./builder.ts')).benchBuilder],
  ['library', async () => (await import('./library.ts')).benchLibrary],
  ['offline-matcher', async () => (await import('./offline-matcher.ts')).benchOfflineMatcher],
  ['local-model', async () => (await import('./local-model.ts')).benchLocalModel],
  ['model-files', async () => (await import('./model-files.ts')).benchModelFiles],
  ['explore', async () => (await import('./explore.ts')).benchExplore],
  ['turn-isolation', async () => (await import('./turn-isolation.ts')).benchTurnIsolation],
  ['rebase', async () => (await import('./rebase.ts')).benchRebase],
  ['generator-isolation', async () => (await import('./generator-isolation.ts')).benchGeneratorIsolation],
  ['draft-save', async () => (await import('./draft-save.ts')).benchDraftSave],
  ['web-story', async () => (await import('./web-story.ts')).benchWebStory],
  ['knowledge-scoping', async () => (await import('./knowledge-scoping.ts')).benchKnowledgeScoping],
  ['bytesized', async () => (await import('./bytesized.ts')).benchBytesized],
  ['table', async () => (await import('./table.ts')).benchTable],
  ['speech', async () => (await import('./speech.ts')).benchSpeech],
];

const only = process.argv.slice(2);
let failed = false;
for (const [name, load] of suites) {
  if (only.length > 0 && !only.includes(name)) continue;
  try {
    const bench = await load();
    for (const row of await bench()) process.stdout.write(`${JSON.stringify({ suite: name, ...row })}\n`);
  } catch (error) {
    failed = true;
    process.stdout.write(
      `${JSON.stringify({ suite: name, error: error instanceof Error ? error.message : String(error) })}\n`,
    );
  }
}
process.exitCode = failed ? 1 : 0;
