// The generator's worker thread (started by runner.ts): runs whole generations — the model call with its
// streamed answer's parsing, the answer's reading, the checker — so the request thread only relays their
// small events and saves the result. Several generations run here at once, each cancelled by its own
// `abort`. An online model is built here from its config; any other model is relayed (relayed-model.ts).

import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { type ChatModel, createModels, Secret } from '../../../adapters/llm/index.ts';
import { withTemperature } from '../../../engine/session/index.ts';
import { failureOf, runGeneration } from './job.ts';
import { type FromWorker, GENERATE_WORKER_NICE, type ToWorker, type WireModel } from './protocol.ts';
import { RelayedModel } from './relayed-model.ts';

const port = parentPort;
if (port === null) throw new Error('the generator worker runs in a worker thread');
const post = (message: FromWorker): void => port.postMessage(message);

interface Running {
  readonly stop: AbortController;
  readonly relay: RelayedModel | undefined;
}
const running = new Map<number, Running>();

/** Lowers this thread's priority where the system has per-thread priorities (Linux); elsewhere nothing. */
function lowerPriority(): void {
  try {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(thread) && thread > 0) setPriority(thread, GENERATE_WORKER_NICE);
  } catch {
    // No /proc/thread-self (not Linux), or not allowed: the worker runs at the process's priority.
  }
}

function modelOf(id: number, wire: WireModel): { model: ChatModel; relay?: RelayedModel } {
  switch (wire.kind) {
    case 'config': {
      const { apiKey, ...rest } = wire.config;
      const models = createModels({
        ...rest,
        ...(apiKey === undefined ? {} : { apiKey: new Secret(apiKey) }),
      });
      if (models === null) throw new Error('an online config built no models');
      return {
        model: (wire.temperature === undefined ? models : withTemperature(models, wire.temperature)).director,
      };
    }
    case 'relay': {
      const relay = new RelayedModel(id, wire.modelId, post);
      return { model: relay, relay };
    }
    default: {
      const never: never = wire;
      throw new Error(`unknown model ${JSON.stringify(never)}`);
    }
  }
}

async function start(message: Extract<ToWorker, { type: 'start' }>): Promise<void> {
  const stop = new AbortController();
  let relay: RelayedModel | undefined;
  try {
    const built = modelOf(message.id, message.model);
    relay = built.relay;
    running.set(message.id, { stop, relay });
    const result = await runGeneration(message.job, built.model, stop.signal, (event) =>
      post({ type: 'event', id: message.id, event }),
    );
    post({ type: 'result', id: message.id, result });
  } catch (error) {
    post({ type: 'failed', id: message.id, failure: failureOf(error) });
  } finally {
    running.delete(message.id);
  }
}

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'start':
      void start(message);
      return;
    case 'abort':
      running.get(message.id)?.stop.abort(new Error(message.reason));
      return;
    case 'model-part':
    case 'model-end':
    case 'model-error':
      running.get(message.id)?.relay?.receive(message);
      return;
    default: {
      const never: never = message;
      throw new Error(`unknown message ${JSON.stringify(never)}`);
    }
  }
});

lowerPriority();
post({ type: 'ready' });
