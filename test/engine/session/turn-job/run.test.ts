// The run stage alone, with no store at all: a hand-made context (the cartridge loaded from its folder), the
// engine streamed, the caller's abort and timeout honoured, and engine refusals mapped to session errors.

import { beforeAll, describe, expect, it } from 'vitest';
import type { Cartridge } from '../../../../src/core/cartridge/index.ts';
import { loadCartridge } from '../../../../src/adapters/files/index.ts';
import { createScriptedModels } from '../../../../src/adapters/llm/scripted.ts';
import { type RunResult, runStage } from '../../../../src/engine/session/turn-job/run.ts';
import type {
  StageOptions,
  TurnContext,
  TurnRequest,
} from '../../../../src/engine/session/turn-job/types.ts';
import { initialWorld } from '../../../../src/engine/turn/index.ts';
import type { GameState, TurnEvent } from '../../../../src/engine/turn/types.ts';
import { LANTERNMERE_DIR } from '../helpers.ts';

let cartridge: Cartridge;
beforeAll(async () => {
  const loaded = await loadCartridge(LANTERNMERE_DIR);
  if (!loaded.ok) throw new Error('lanternmere does not load');
  cartridge = loaded.cartridge;
});

function context(request: TurnRequest, fields: Partial<TurnContext> = {}): TurnContext {
  return {
    sessionId: 's',
    turnId: 't',
    parentId: 'p',
    expectedHeadId: 'p',
    request,
    cartridge,
    persona: undefined,
    state: cartridge.rules.initialState as GameState,
    messages: [],
    ledgerTurn: 1,
    before: {
      world: initialWorld(cartridge),
      sinceSnapshotChars: 0,
      snapshotChars: 0,
      sinceSnapshotTurns: 0,
    },
    models: null,
    seed: 5,
    ...fields,
  };
}

async function drain(
  run: AsyncGenerator<TurnEvent, RunResult, undefined>,
): Promise<{ events: TurnEvent[]; result: RunResult }> {
  const events: TurnEvent[] = [];
  for (;;) {
    const next = await run.next();
    if (next.done) return { events, result: next.value };
    events.push(next.value);
  }
}

/** Models whose Director answers only after five seconds (the turn is stopped long before). */
const slowModels = () =>
  createScriptedModels({ director: [{ text: 'ok', delayMs: 5_000 }], narrator: [{ text: 'never' }] });

async function stoppedBy(options: StageOptions): Promise<{ result: RunResult; ms: number }> {
  const started = performance.now();
  const { result } = await drain(
    runStage(context({ turn: { input: 'wait' } }, { models: slowModels() }), options),
  );
  return { result, ms: performance.now() - started };
}

describe('run stage', () => {
  it('streams the engine on the context and finishes with the record of the done event', async () => {
    const { events, result } = await drain(runStage(context({ turn: { input: 'check pack' } })));
    expect(result.kind).toBe('finished');
    const done = events.at(-1);
    expect(done?.type).toBe('done');
    if (result.kind !== 'finished' || done?.type !== 'done') throw new Error('expected a record');
    expect(result.record).toBe(done.record);
    expect(result.record.seed).toBe(5);
    expect(events.some((e) => e.type === 'tool_call' && e.name === 'check_pack')).toBe(true);
  });

  it('the same context and seed play the same turn twice (the stage keeps no state of its own)', async () => {
    const a = await drain(runStage(context({ turn: { input: 'check pack' } })));
    const b = await drain(runStage(context({ turn: { input: 'check pack' } })));
    if (a.result.kind !== 'finished' || b.result.kind !== 'finished') throw new Error('expected records');
    expect(b.result.record.stateAfter).toEqual(a.result.record.stateAfter);
    expect(b.result.record.narration).toBe(a.result.record.narration);
  });

  it('a signal aborted before the run fails it as aborted, with no record', async () => {
    const controller = new AbortController();
    controller.abort();
    const { result } = await stoppedBy({ signal: controller.signal });
    expect(result.kind).toBe('failed');
    if (result.kind !== 'failed') return;
    expect(result.error.code).toBe('aborted');
    expect(result.record).toBeUndefined();
  });

  it('an abort while the model works stops the run at once', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const { result, ms } = await stoppedBy({ signal: controller.signal });
    expect(result.kind === 'failed' && result.error.code).toBe('aborted');
    expect(ms).toBeLessThan(4_000);
  });

  it('a run past timeoutMs fails as timeout', async () => {
    const { result, ms } = await stoppedBy({ timeoutMs: 30 });
    expect(result.kind === 'failed' && result.error.code).toBe('timeout');
    expect(result.kind === 'failed' && result.error.message).toBe(
      'the turn took too long and was abandoned; nothing was saved',
    );
    expect(ms).toBeLessThan(4_000);
  });

  it('engine refusals become invalid session errors, offline replies answered ones, that say which kind', async () => {
    for (const [input, code, details] of [
      ['', 'invalid', { kind: 'input' }],
      ['/nope', 'answered', { kind: 'reply', reason: 'unknown' }],
      ['xyzzy', 'answered', { kind: 'reply', reason: 'unmatched' }],
    ] as const) {
      const { result } = await drain(runStage(context({ turn: { input } })));
      expect(result.kind).toBe('failed');
      if (result.kind !== 'failed') continue;
      expect(result.error.code).toBe(code);
      // An offline reply says why the engine answered instead of playing (docs/turn.md).
      expect(result.error.details).toEqual(details);
    }
  });

  it('a failing model is a model error', async () => {
    const models = createScriptedModels({
      director: [{ error: { kind: 'http', status: 503, message: 'provider down' } }],
      narrator: [],
    });
    const { result } = await drain(runStage(context({ turn: { input: 'wait' } }, { models })));
    expect(result.kind === 'failed' && result.error.code).toBe('model');
  });

  it('an error the engine should never throw propagates unchanged', async () => {
    const bug = new TypeError('an engine bug');
    const models = createScriptedModels({ director: [], narrator: [] });
    const throwing = {
      ...models,
      director: {
        id: 'buggy',
        generate: () => Promise.reject(bug),
        stream: () => {
          throw bug;
        },
      },
    };
    await expect(drain(runStage(context({ turn: { input: 'wait' } }, { models: throwing })))).rejects.toBe(
      bug,
    );
  });
});
