// The bounds of a rules module (`yare.js` / `yare.ts`). A cartridge comes from a third party, so its code
// runs only inside QuickJS compiled to WebAssembly, in a worker thread, with every resource capped. Each
// limit has a test at the limit and just past it (test/core/cartridge/js-rules.test.ts); docs/studio.md lists
// them for authors.

const KIB = 1024;
const MIB = 1024 * KIB;

/** Milliseconds a module may run (its top level and the JSON conversion of its default export). QuickJS's
 * interrupt handler stops it; a real rules module takes well under 10 ms. */
export const RULES_SCRIPT_TIME_MS = 1_000;
/** Bytes QuickJS may allocate for one evaluation (objects, strings, the module's code). Enforced twice:
 * QuickJS's malloc limit, and the engine's WebAssembly memory, which cannot grow past its start size
 * (below) plus this. */
export const RULES_SCRIPT_MEMORY_BYTES = 32 * MIB;
/** A WebAssembly memory page. */
export const WASM_PAGE_BYTES = 64 * KIB;
/** Pages the engine's WebAssembly memory starts with: the size QuickJS's build asks for (16 MiB), which
 * holds its own stack and static data. */
export const SANDBOX_WASM_INITIAL_PAGES = (16 * MIB) / WASM_PAGE_BYTES;
/** Bytes of QuickJS's own stack: about 1,400 nested JavaScript calls. The worker's V8 stack (below) is far
 * larger, so QuickJS always stops first with a catchable "stack overflow". */
export const RULES_SCRIPT_STACK_BYTES = 256 * KIB;
/** Megabytes of the worker thread's V8 stack, which holds QuickJS's WebAssembly frames. */
export const SANDBOX_WORKER_STACK_MB = 16;
/** Megabytes of the worker thread's JavaScript heap (the host side of the sandbox: the JSON result). */
export const SANDBOX_WORKER_HEAP_MB = 64;
/** Characters of the rules object as JSON (what crosses out of the sandbox). The YAML limit is 256 KiB and
 * JSON of the same rules is of similar size; this leaves room for long note templates. */
export const MAX_RULES_JSON_CHARS = 512 * KIB;
/** Milliseconds the caller waits for the worker to start (load the WebAssembly engine) before giving up. */
export const SANDBOX_START_MS = 15_000;
/** Milliseconds past RULES_SCRIPT_TIME_MS after which the caller stops waiting and ends the worker: the
 * backstop if the interrupt handler could not fire (a single long native call). */
export const SANDBOX_GRACE_MS = 2_000;
/** Characters of an error message taken from the sandbox (a module controls the text of its own errors). */
export const MAX_SANDBOX_MESSAGE_CHARS = 500;
