/**
 * Drop handling for one element: highlights while a drag with files hovers, and hands the
 * dropped folder paths on (problems become notices). The drop stops there, so the window's
 * own drop target does not act on it too.
 */
import { useRef, useState, type DragEvent } from 'react';
import { useCove } from '../../store';
import { canHoldPaths, droppedPaths } from './dropped-paths';

export function useFolderDrop(onPaths: (paths: string[]) => void) {
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  const handlers = {
    onDragEnter(event: DragEvent) {
      if (!canHoldPaths(event.dataTransfer)) return;
      depth.current += 1;
      setOver(true);
    },
    onDragOver(event: DragEvent) {
      if (!canHoldPaths(event.dataTransfer)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave() {
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    },
    onDrop(event: DragEvent) {
      depth.current = 0;
      setOver(false);
      if (!canHoldPaths(event.dataTransfer)) return;
      event.preventDefault();
      event.stopPropagation();
      deliver(event.dataTransfer, onPaths);
    },
  };
  return { over, handlers };
}

export function deliver(data: DataTransfer, onPaths: (paths: string[]) => void): void {
  const { paths, errors } = droppedPaths(data);
  for (const error of errors) useCove.getState().notify(error);
  if (paths.length > 0) onPaths(paths);
}
