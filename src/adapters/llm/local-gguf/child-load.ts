// Loading a model file inside the model host, step by step, each step announced before it starts so the
// server holds it to its deadline (host-limits.ts): our own header reader first (gguf-header.ts: the
// counts and lengths bounded before node-llama-cpp reads the file), the chat template's render cost
// (template-probe.ts), then node-llama-cpp: the backend, the weights, the context, the chat wrapper.

import { GgufHeaderError, readGgufHeaderOfFile } from './gguf-header.ts';
import { HostFailure, type HostPhase, type LoadedInfo, type LoadRequest } from './host-protocol.ts';
import type { LlamaModel } from './llama-api.ts';
import { DEFAULT_MODEL_CONTEXT } from './options.ts';
import { LoadedModel, startBackend } from './runtime.ts';
import { specialTokenTexts } from './special-tokens.ts';
import { probeChatTemplate } from './template-probe.ts';

/** Says which step starts, and gives the event loop a turn so the message leaves before the step blocks. */
export type Announce = (phase: HostPhase) => Promise<void>;

function readHeader(file: string): { specialTokens: string[]; chatTemplate: string | undefined } {
  try {
    const header = readGgufHeaderOfFile(file);
    return { specialTokens: specialTokenTexts(header), chatTemplate: header.chatTemplate };
  } catch (error) {
    if (!(error instanceof GgufHeaderError)) throw error;
    const message = error.message.startsWith(file) ? error.message : `${file}: ${error.message}`;
    throw new HostFailure('config', message, true);
  }
}

async function loadWeights(request: LoadRequest, load: () => Promise<LlamaModel>): Promise<LlamaModel> {
  try {
    return await load();
  } catch (error) {
    throw new HostFailure(
      'config',
      `${request.file}: llama.cpp cannot load this model: ${(error as Error).message}`,
      true,
    );
  }
}

/** Loads the file of `request`; throws a HostFailure saying which step failed and why. */
export async function loadModelInHost(
  request: LoadRequest,
  announce: Announce,
): Promise<{ model: LoadedModel; info: LoadedInfo }> {
  await announce('header');
  const { specialTokens, chatTemplate } = readHeader(request.file);
  await announce('template');
  const templateRenderCpuMs =
    chatTemplate === undefined
      ? 0
      : probeChatTemplate(request.entry, request.file, chatTemplate, request.templateRenderCpuMs);
  await announce('backend');
  const backend = await startBackend(request.entry, request.threads);
  await announce('weights');
  const weights = await loadWeights(request, () =>
    backend.llama.loadModel({ modelPath: request.file, gpuLayers: 0 }),
  );
  await announce('context');
  const contextSize = request.contextSize ?? Math.min(weights.trainContextSize, DEFAULT_MODEL_CONTEXT);
  let context: Awaited<ReturnType<LlamaModel['createContext']>>;
  try {
    context = await weights.createContext({ contextSize, threads: request.threads, sequences: 1 });
  } catch (error) {
    await weights.dispose();
    throw new HostFailure(
      'config',
      `${request.file}: no context of ${contextSize} tokens could be made (lower MNESOS_MODEL_CONTEXT): ${(error as Error).message}`,
    );
  }
  await announce('chat-wrapper');
  const sequence = context.getSequence();
  // node-llama-cpp chooses the chat wrapper here, rendering the template against its known formats.
  const chat = new backend.module.LlamaChat({ contextSequence: sequence });
  const model = new LoadedModel(backend, weights, context, sequence, chat);
  return {
    model,
    info: {
      specialTokens,
      chatWrapper: model.chatWrapperName,
      contextSize: model.contextSize,
      trainContextSize: model.trainContextSize,
      templateRenderCpuMs,
    },
  };
}
