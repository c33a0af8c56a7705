import { PageTitle } from '../components.tsx';
import { LibraryGrid } from '../media-library.tsx';

/** The media library page: upload, search, tag, see where a file is used, delete, reuse in a new post. */
export default function MediaPage() {
  return (
    <>
      <PageTitle title="Media library" />
      <p className="muted">Everything uploaded for your posts. Upload here, search by name or tag, and open a file to tag it, see which posts use it, delete it or use it in a new post.</p>
      <LibraryGrid />
    </>
  );
}
