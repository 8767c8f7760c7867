// The four files of a cartridge draft, and the plain-text format the model writes them in: each file
// starts with a line `=== file: NAME ===`. Parsing is line by line (linear, no regular expression over the
// answer), a code fence around a file's body is removed, and anything but the four names is reported.

import {
  MAX_DIRECTIVES_FILE_BYTES,
  MAX_FIRST_MESSAGE_BYTES,
  MAX_LORE_BYTES,
  MAX_YARE_BYTES,
} from '../../../core/cartridge/limits.ts';

export const DRAFT_FILES = [
  'yare.yaml',
  'bot_lore.md',
  'prompt_directives.yaml',
  'first-message.md',
] as const;
export type DraftFileName = (typeof DRAFT_FILES)[number];
export type DraftFiles = Partial<Record<DraftFileName, string>>;

const MAX_BYTES: Readonly<Record<DraftFileName, number>> = {
  'yare.yaml': MAX_YARE_BYTES,
  'bot_lore.md': MAX_LORE_BYTES,
  'prompt_directives.yaml': MAX_DIRECTIVES_FILE_BYTES,
  'first-message.md': MAX_FIRST_MESSAGE_BYTES,
};

const HEADER_START = '=== file:';
const HEADER_END = '===';

export function isDraftFileName(name: string): name is DraftFileName {
  return (DRAFT_FILES as readonly string[]).includes(name);
}

export interface ParsedAnswer {
  readonly files: DraftFiles;
  /** What was wrong with the answer's form (unknown file names, oversized files, nothing found). */
  readonly problems: string[];
}

/** The files in a model's answer. Text before the first header is commentary and is ignored. */
export function parseDraftAnswer(answer: string): ParsedAnswer {
  const files: DraftFiles = {};
  const problems: string[] = [];
  let current: string | undefined;
  let body: string[] = [];
  const close = () => {
    if (current === undefined) return;
    const text = stripFence(body.join('\n'));
    if (!isDraftFileName(current)) {
      problems.push(`'${current.slice(0, 80)}' is not a cartridge file (write ${DRAFT_FILES.join(', ')})`);
    } else if (Buffer.byteLength(text, 'utf8') > MAX_BYTES[current]) {
      problems.push(`${current} is larger than its limit of ${MAX_BYTES[current]} bytes`);
    } else {
      files[current] = text;
    }
  };
  for (const line of answer.split('\n')) {
    const trimmed = line.trim();
    if (
      trimmed.startsWith(HEADER_START) &&
      trimmed.endsWith(HEADER_END) &&
      trimmed.length > HEADER_START.length + HEADER_END.length
    ) {
      close();
      current = trimmed.slice(HEADER_START.length, trimmed.length - HEADER_END.length).trim();
      body = [];
    } else if (current !== undefined) {
      body.push(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
  }
  close();
  if (Object.keys(files).length === 0 && problems.length === 0)
    problems.push(`no file found: each file must start with a line "${HEADER_START} NAME ${HEADER_END}"`);
  return { files, problems };
}

/** A body wrapped in one code fence (```yaml … ```) loses the fence; the text ends with one newline. */
function stripFence(text: string): string {
  const lines = text.split('\n');
  while (lines.length > 0 && lines[0]?.trim() === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
  if (lines.length >= 2 && lines[0]?.trim().startsWith('```') && lines[lines.length - 1]?.trim() === '```') {
    lines.shift();
    lines.pop();
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The draft in the same format, for showing the model what it is to change. */
export function formatDraft(files: DraftFiles): string {
  return DRAFT_FILES.filter((name) => files[name] !== undefined)
    .map((name) => `${HEADER_START} ${name} ${HEADER_END}\n${files[name] ?? ''}`)
    .join('\n');
}
