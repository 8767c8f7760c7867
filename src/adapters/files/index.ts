// Cartridges from the file system and from uploads: reading a folder (with its symlink, pipe and size
// checks), inflating archives (.zip, .tar.gz, .tar), and loading either through the core's pure loader
// with the rules sandbox.

export * from './archive/index.ts';
export { endsLikeZip, isZip, readZip } from './archive/zip.ts';
export { type FolderReadResult, readCartridgeFolder } from './cartridge-folder.ts';
export { loadCartridge, loadCartridgeFromFiles } from './load.ts';
export {
  appendInside,
  prepareFolder,
  refuseLinkedFolder,
  type SafeWriteOptions,
  UnsafeWriteError,
  writeInside,
  writeNamedFile,
} from './safe-write.ts';
