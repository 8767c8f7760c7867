// The work of `mnesos lsp --stdio` (see ../commands/lsp.ts): serves until the editor closes the stream.
// The input's framing is checked (src/tools/authoring/lsp/framing.ts): a bad frame gets a JSON-RPC error and the
// server keeps serving.

import { checkedConnection, startLanguageServer } from '../../../tools/authoring/lsp/index.ts';

export async function runLsp(): Promise<void> {
  const connection = startLanguageServer(checkedConnection(process.stdin, process.stdout));
  await new Promise<void>((resolve) => connection.onExit(() => resolve()));
}
