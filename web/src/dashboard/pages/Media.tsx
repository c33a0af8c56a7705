import { PageTitle } from '../components.tsx';
import { LibraryGrid } from '../media-library.tsx';

/** The media library page: every upload, searchable, previewed large, reusable in a new post. */
export default function MediaPage() {
  return (
    <>
      <PageTitle title="Media library" />
      <p className="muted">Everything uploaded for your posts. Open a file to preview it or use it in a new post.</p>
      <LibraryGrid />
    </>
  );
}
