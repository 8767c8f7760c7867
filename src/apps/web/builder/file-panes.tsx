// The draft's files as tabs (the ARIA tabs pattern: arrow keys, Home and End move between them), a
// CodeMirror pane per file, a download of the open file, and a way to add one of the optional files.
import type { Finding } from './draft-session.ts';
import { FILE_LABELS, OTHER_FILES } from './draft-files.ts';

/** The tab a key moves to from `at` (undefined: the key does not move). */
function tabAfter(key: string, fileNames: readonly string[], at: number): string | undefined {
  switch (key) {
    case 'ArrowRight':
      return fileNames[(at + 1) % fileNames.length];
    case 'ArrowLeft':
      return fileNames[(at - 1 + fileNames.length) % fileNames.length];
    case 'Home':
      return fileNames[0];
    case 'End':
      return fileNames[fileNames.length - 1];
    default:
      return undefined;
  }
}

export function FilePanes(props: {
  fileNames: readonly string[];
  active: string;
  findings: readonly Finding[];
  onSelect: (file: string) => void;
  onAdd: (file: string) => void;
  onDownloadFile: () => void;
  mountEditor: (file: string) => (element: HTMLDivElement | null) => void;
}) {
  const { fileNames, active } = props;
  const onTabKey = (event: KeyboardEvent): void => {
    const next = tabAfter(event.key, fileNames, fileNames.indexOf(active));
    if (next === undefined) return;
    event.preventDefault();
    props.onSelect(next);
    document.getElementById(`file-tab-${next}`)?.focus();
  };
  return (
    <section class="card builder-files" aria-label="Files">
      <div class="tabs" role="tablist" aria-label="Cartridge files" onKeyDown={onTabKey}>
        {fileNames.map((file) => (
          <button
            key={file}
            type="button"
            role="tab"
            id={`file-tab-${file}`}
            aria-selected={active === file}
            aria-controls={`file-pane-${file}`}
            tabIndex={active === file ? 0 : -1}
            onClick={() => props.onSelect(file)}
            data-testid={`file-tab-${file}`}
          >
            {FILE_LABELS[file] ? `${FILE_LABELS[file]} (${file})` : file}
            {props.findings.some((p) => p.file === file && p.severity === 'error') ? ' ⚠' : ''}
          </button>
        ))}
        <button type="button" onClick={props.onDownloadFile} data-testid="download-file">
          Download {active}
        </button>
        <select
          aria-label="Add a file"
          value=""
          onChange={(e) => props.onAdd(e.currentTarget.value)}
          data-testid="add-file"
        >
          <option value="">Add a file…</option>
          {OTHER_FILES.filter((f) => !fileNames.includes(f)).map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </div>
      {fileNames.map((file) => (
        <div
          key={file}
          id={`file-pane-${file}`}
          role="tabpanel"
          aria-labelledby={`file-tab-${file}`}
          hidden={active !== file}
          class="builder-editor"
          data-testid={`editor-${file}`}
          ref={props.mountEditor(file)}
        />
      ))}
    </section>
  );
}
