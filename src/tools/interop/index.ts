// Interoperability with other tools: SillyTavern character cards and World Info files, imported as
// cartridges and exported back (docs/sillytavern.md).
export { ImportError } from './sillytavern/errors.ts';
export { type CartridgeTexts, exportCard, exportPngCard, exportWorldInfo } from './sillytavern/export.ts';
export { CARD_COPY_FILE, REPORT_FILE } from './sillytavern/to-cartridge.ts';
export { importSillyTavern } from './sillytavern/import.ts';
export { MAX_IMPORT_FILE_BYTES } from './sillytavern/limits.ts';
export { formatLossReport } from './sillytavern/loss.ts';
