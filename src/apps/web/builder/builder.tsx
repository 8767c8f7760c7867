// The builder (loaded as its own chunk, see app/builder-route.tsx): the drafts screen (drafts.tsx), or the
// editor of one draft (draft-editor.tsx). Every edit is saved on the server shortly after it is made (and
// as the page unloads), so a reload never loses a draft.
import './builder.css';
import { useClient } from '../app/context.ts';
import { BuilderApi } from './builder-api.ts';
import { DraftEditor } from './draft-editor.tsx';
import { Drafts } from './drafts.tsx';

export function Builder({ draftId }: { draftId?: string | undefined }) {
  const api = useClient(BuilderApi);
  return draftId ? <DraftEditor key={draftId} api={api} id={draftId} /> : <Drafts api={api} />;
}
