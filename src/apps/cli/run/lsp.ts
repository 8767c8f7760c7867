// The work of `mnesos lsp --stdio` (see ../commands/lsp.ts): serves until the editor closes the stream.

import { startLanguageServer } from '../../../tools/authoring/lsp/index.ts';

export async function runLsp(): Promise<void> {
  const connection = startLanguageServer();
  await new Promise<void>((resolve) => connection.onExit(() => resolve()));
}
