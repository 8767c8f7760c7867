// The worker thread's code, as plain JavaScript source (run with `new Worker(source, { eval: true })`, so
// it works the same under tsx, Vitest and the compiled build, with no loader). It owns the WebAssembly
// QuickJS engine; each request gets a fresh runtime and context, disposed afterwards, so nothing a module
// does survives into the next one. The host waits synchronously (Atomics.wait) and reads the reply from a
// MessagePort with receiveMessageOnPort; see quickjs.ts.
//
// Inside QuickJS there is no `require`, `process`, `import` of anything but the built-in 'mnesos' module
// (defineRules), no clock (`Date` replaced) and no randomness (`Math.random` replaced); QuickJS has no I/O
// of its own (the std/os modules are not part of this build).

export const SANDBOX_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { newQuickJSWASMModuleFromVariant, newVariant } = require(workerData.coreModule);
const variantModule = require(workerData.variantModule);
// The engine's whole WebAssembly memory is bounded here: QuickJS's own malloc limit counts only part of
// each allocation in this build, so this maximum is what really stops a module that allocates in a loop.
const memory = new WebAssembly.Memory({ initial: workerData.initialPages, maximum: workerData.maximumPages });
const variant = newVariant(variantModule.default ?? variantModule, { wasmMemory: memory });
const flag = new Int32Array(workerData.flag);
const reply = workerData.replyPort;
const enginePromise = newQuickJSWASMModuleFromVariant(variant);

// The built-in module 'mnesos': defineRules is the identity, for editors' types only.
const MNESOS_MODULE = 'export function defineRules(rules) { return rules; }\nexport default { defineRules };\n';
// Runs before the module, in the same context: takes away the clock and randomness, and keeps a private
// JSON.stringify (the module may replace the global one) that also enforces the output cap.
const PRELUDE = [
  '(function (maxChars) {',
  '  "use strict";',
  '  const stringify = JSON.stringify;',
  '  const deterministic = (what) => function () {',
  '    throw new TypeError(what + " is not available in rules: rules must be deterministic (no clock, no randomness). Use roll() in an expression for dice.");',
  '  };',
  '  const NoDate = deterministic("Date");',
  '  for (const name of ["now", "parse", "UTC"]) NoDate[name] = deterministic("Date." + name);',
  '  Object.defineProperty(globalThis, "Date", { value: NoDate, writable: false, configurable: false });',
  '  Object.defineProperty(Math, "random", { value: deterministic("Math.random"), writable: false, configurable: false });',
  '  return function (value) {',
  '    if (value === null || typeof value !== "object" || Array.isArray(value)) return ["not-object", typeof value === "object" ? (value === null ? "null" : "an array") : typeof value];',
  '    const text = stringify(value);',
  '    if (typeof text !== "string") return ["not-json", typeof text];',
  '    if (text.length > maxChars) return ["too-large", text.length];',
  '    return ["ok", text];',
  '  };',
  '})',
].join('\n');

function errorInfo(context, handle) {
  let dumped;
  try {
    dumped = context.dump(handle);
  } catch (e) {
    dumped = { name: 'Error', message: String(e) };
  }
  // QuickJS throws null when it cannot even allocate the error object.
  if (dumped === null) return { name: 'InternalError', message: 'out of memory (or the module threw null)', stack: '' };
  if (typeof dumped !== 'object') return { name: 'Error', message: String(dumped), stack: '' };
  return {
    name: typeof dumped.name === 'string' ? dumped.name : 'Error',
    message: typeof dumped.message === 'string' ? dumped.message : String(dumped.message ?? dumped),
    stack: typeof dumped.stack === 'string' ? dumped.stack : '',
  };
}

function evaluate(engine, request) {
  const runtime = engine.newRuntime();
  let context;
  const handles = [];
  try {
    runtime.setMemoryLimit(request.memoryBytes);
    runtime.setMaxStackSize(request.stackBytes);
    const deadline = Date.now() + request.timeMs;
    runtime.setInterruptHandler(() => Date.now() > deadline);
    runtime.setModuleLoader((name) => {
      if (name === 'mnesos') return MNESOS_MODULE;
      return { error: new Error("import of '" + String(name).slice(0, 100) + "' is not allowed: a rules module may import only 'mnesos' (defineRules)") };
    });
    context = runtime.newContext({ intrinsics: { BaseObjects: true, Date: false, Eval: true, StringNormalize: true, RegExp: true, JSON: true, Proxy: true, MapSet: true, TypedArrays: true, Promise: true } });
    const prelude = context.evalCode(PRELUDE, '<prelude>', { type: 'global' });
    if (prelude.error) {
      const info = errorInfo(context, prelude.error);
      prelude.error.dispose();
      return { kind: 'error', phase: 'internal', ...info };
    }
    const makeSerializer = prelude.value;
    handles.push(makeSerializer);
    const maxChars = context.newNumber(request.maxJsonChars);
    handles.push(maxChars);
    const serializerResult = context.callFunction(makeSerializer, context.undefined, maxChars);
    if (serializerResult.error) {
      const info = errorInfo(context, serializerResult.error);
      serializerResult.error.dispose();
      return { kind: 'error', phase: 'internal', ...info };
    }
    const serialize = serializerResult.value;
    handles.push(serialize);

    const evaluated = context.evalCode(request.code, request.file, { type: 'module' });
    if (evaluated.error) {
      const info = errorInfo(context, evaluated.error);
      evaluated.error.dispose();
      return { kind: 'error', phase: 'evaluate', ...info };
    }
    handles.push(evaluated.value);
    const namespace = namespaceOf(context, evaluated.value);
    if (namespace === undefined) {
      return { kind: 'error', phase: 'evaluate', name: 'Error', message: 'top-level await is not supported in a rules module', stack: '' };
    }
    if (namespace !== evaluated.value) handles.push(namespace);
    const hasDefault = context.getProp(namespace, 'default');
    handles.push(hasDefault);
    if (context.typeof(hasDefault) === 'undefined') {
      return { kind: 'error', phase: 'shape', name: 'Error', message: 'the module has no default export: end it with "export default defineRules({ ... })"', stack: '' };
    }
    const serialized = context.callFunction(serialize, context.undefined, hasDefault);
    if (serialized.error) {
      const info = errorInfo(context, serialized.error);
      serialized.error.dispose();
      return { kind: 'error', phase: 'serialize', ...info };
    }
    const outcome = context.dump(serialized.value);
    serialized.value.dispose();
    if (!Array.isArray(outcome) || typeof outcome[0] !== 'string') {
      return { kind: 'error', phase: 'internal', name: 'Error', message: 'unexpected serializer result', stack: '' };
    }
    switch (outcome[0]) {
      case 'ok':
        return { kind: 'ok', json: String(outcome[1]) };
      case 'too-large':
        return { kind: 'too-large', chars: Number(outcome[1]) };
      case 'not-object':
        return { kind: 'error', phase: 'shape', name: 'TypeError', message: 'the default export must be the rules object, not ' + String(outcome[1]), stack: '' };
      default:
        return { kind: 'error', phase: 'shape', name: 'TypeError', message: 'the default export cannot be converted to JSON (JSON.stringify gave ' + String(outcome[1]) + ')', stack: '' };
    }
  } finally {
    for (const handle of handles.reverse()) {
      try { if (handle.alive) handle.dispose(); } catch {}
    }
    try { if (context) context.dispose(); } catch {}
    try { runtime.dispose(); } catch {}
  }
}

// A module evaluates to its namespace, or to a promise of it when it uses top-level await (refused: a
// rules module has nothing to wait for, and a pending promise would need the event loop).
function namespaceOf(context, handle) {
  const state = context.getPromiseState(handle);
  if (state.notAPromise) return handle;
  if (state.type === 'fulfilled') return state.value;
  if (state.type === 'rejected' && state.error) state.error.dispose();
  return undefined;
}

parentPort.on('message', async (request) => {
  let result;
  let fatal = false;
  try {
    const engine = await enginePromise;
    result = evaluate(engine, request);
  } catch (error) {
    // A failure of the engine itself (a host stack overflow inside WebAssembly, an aborted module): the
    // engine's memory may be inconsistent, so this worker answers and then ends; the host starts a new one.
    fatal = true;
    result = { kind: 'crashed', message: String(error && error.message ? error.message : error).slice(0, 500) };
  }
  reply.postMessage({ id: request.id, result });
  Atomics.store(flag, 0, request.id);
  Atomics.notify(flag, 0);
  if (fatal) process.exit(1);
});
`;
