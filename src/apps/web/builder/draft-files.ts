// Which files the builder shows and how it names them (no DOM: shared by the builder's panes).

/** The four files every draft shows (and the generator writes), then any other cartridge file it holds. */
export const MAIN_FILES = ['yare.yaml', 'bot_lore.md', 'prompt_directives.yaml', 'first-message.md'];
/** The other cartridge files "Add a file…" offers. */
export const OTHER_FILES = [
  'alternate_greetings.json',
  'intents.yaml',
  'world_info.json',
  'yare.js',
  'yare.ts',
];
/** The files that hold rules (a draft has one of them). */
export const RULES_FILES = ['yare.yaml', 'yare.js', 'yare.ts'];
export const FILE_LABELS: Readonly<Record<string, string>> = {
  'yare.yaml': 'Rules',
  'bot_lore.md': 'Lore',
  'prompt_directives.yaml': 'Directives',
  'first-message.md': 'First message',
};
