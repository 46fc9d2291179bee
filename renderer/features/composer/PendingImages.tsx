/** Thumbnails of the images waiting for the next prompt, each with a button that takes it back. */
import { useCove } from '../../store';

export function PendingImages({ sessionId }: { sessionId: string }) {
  const images = useCove((state) => state.promptImages[sessionId]);
  const remove = useCove((state) => state.removePromptImage);
  if (!images || images.length === 0) return null;
  return (
    <ul className="pending-images" aria-label="Images for the next message">
      {images.map((image) => (
        <li key={image.attachmentId} className="pending-image">
          <img src={image.preview} alt={image.name} title={`${image.name} · ${image.width}×${image.height}${image.resized ? ' (scaled down)' : ''}`} />
          <button type="button" aria-label={`Remove ${image.name}`} onClick={() => remove(sessionId, image.attachmentId)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
