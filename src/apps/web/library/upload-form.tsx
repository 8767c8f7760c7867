// Uploading a cartridge archive (.zip, .tar.gz) or importing a SillyTavern card (.png, .json, .charx); a
// refused one lists its problems as file:line:col.
import { useState } from 'preact/hooks';
import type { LibraryApi } from './library-api.ts';
import { failedOutcome, type Outcome, OutcomeView } from './outcome.tsx';

export function UploadForm({ api, onUploaded }: { api: LibraryApi; onUploaded: () => Promise<void> }) {
  const [upload, setUpload] = useState<Outcome>({ kind: 'idle' });
  const [file, setFile] = useState<File | null>(null);
  const onUpload = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (!file) return;
    setUpload({ kind: 'busy' });
    try {
      const result = await api.upload(file, file.name);
      setUpload({
        kind: 'ok',
        message: `Added ${result.version.name} (${result.version.contentHash.slice(0, 12)})`,
      });
      await onUploaded();
    } catch (e) {
      setUpload(failedOutcome(e));
    }
  };
  return (
    <>
      <form onSubmit={onUpload} class="row" style={{ marginTop: '1rem' }}>
        <label>
          Upload a cartridge (.zip or .tar.gz) or import a SillyTavern card (.png, .json, .charx)
          <input
            type="file"
            accept=".zip,.tar.gz,.tgz,.png,.json,.charx,application/zip,application/gzip"
            data-testid="upload-file"
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
          />
        </label>
        <button type="submit" disabled={!file || upload.kind === 'busy'} data-testid="upload-submit">
          Upload
        </button>
      </form>
      <OutcomeView outcome={upload} testId="upload-result" problemsTestId="upload-problems" />
    </>
  );
}
