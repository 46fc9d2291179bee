/**
 * The change a file edit would make, in its permission prompt: the diff of the tool's dry run
 * with line numbers (a new file: all of its content), or why the edit would fail.
 */
import { memo } from 'react';
import type { PermissionPreview } from '../../../shared/events';
import { DiffView } from '../tools/DiffView';

export const PermissionPreviewView = memo(function PermissionPreviewView({ preview }: { preview: PermissionPreview }) {
  if (preview.error) {
    return (
      <p className="permission-preview-error" role="alert" aria-label="This edit would fail">
        This edit would fail: {preview.error}
      </p>
    );
  }
  return (
    <section className="permission-preview" aria-label={preview.newFile ? 'Content of the new file' : 'Change this edit would make'}>
      <h3 className="permission-preview-title">{preview.newFile ? 'New file' : 'Change'}</h3>
      {preview.diff ? <DiffView diff={preview.diff} lineNumbers /> : <p className="permission-preview-none">The file would stay the same.</p>}
    </section>
  );
});
