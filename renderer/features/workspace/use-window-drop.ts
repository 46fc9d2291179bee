/**
 * Folders dropped anywhere on the window: into the open session as more workspace roots, or,
 * with no session open, into the new-session folder field (checked at once).
 */
import { useEffect, useState } from 'react';
import { useCove } from '../../store';
import { canHoldPaths } from './dropped-paths';
import { deliver } from './use-folder-drop';

export function useWindowDrop(): boolean {
  const [dropping, setDropping] = useState(false);
  useEffect(() => {
    let depth = 0;
    const onDragEnter = (event: DragEvent) => {
      if (!canHoldPaths(event.dataTransfer)) return;
      depth += 1;
      setDropping(true);
    };
    const onDragLeave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDropping(false);
    };
    const onDragOver = (event: DragEvent) => {
      if (!canHoldPaths(event.dataTransfer)) return;
      // Without this the browser would navigate to the dropped file.
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (event: DragEvent) => {
      depth = 0;
      setDropping(false);
      if (!event.dataTransfer || !canHoldPaths(event.dataTransfer)) return;
      event.preventDefault();
      deliver(event.dataTransfer, (paths) => {
        const store = useCove.getState();
        const sessionId = store.activeSessionId;
        if (sessionId) {
          for (const path of paths) void store.addWorkspace(sessionId, path);
          return;
        }
        store.setFolderDraft(paths[0]!);
        void store.checkFolder(paths[0]!);
      });
    };
    window.addEventListener('dragenter', onDragEnter);
    window.addEventListener('dragleave', onDragLeave);
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onDragEnter);
      window.removeEventListener('dragleave', onDragLeave);
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, []);
  return dropping;
}
