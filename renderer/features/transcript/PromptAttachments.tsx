/**
 * What came with a prompt: mentioned files as chips (a file that could not be attached says
 * why), images as thumbnails fetched once by id from main, which keeps them beside the session.
 */
import { useEffect, useState } from 'react';
import type { PromptAttachment } from '../../../shared/events';
import { call } from '../../transport/client';

export function PromptAttachments({ sessionId, attachments }: { sessionId: string; attachments: readonly PromptAttachment[] }) {
  return (
    <ul className="prompt-attachments" aria-label="Attached to this message">
      {attachments.map((attachment) =>
        attachment.kind === 'file' ? (
          <li key={`file:${attachment.path}`} className={`attachment-file${attachment.error ? ' failed' : ''}`} title={attachment.error ?? attachment.path}>
            @{attachment.path}
            {attachment.error ? <span className="attachment-error"> (not attached: {attachment.error})</span> : null}
          </li>
        ) : (
          <li key={`image:${attachment.attachmentId}`} className="attachment-image">
            <StoredImage sessionId={sessionId} attachmentId={attachment.attachmentId} name={attachment.name} size={`${attachment.width}×${attachment.height}`} />
          </li>
        ),
      )}
    </ul>
  );
}

function StoredImage({ sessionId, attachmentId, name, size }: { sessionId: string; attachmentId: string; name: string; size: string }) {
  const [source, setSource] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void call('session:attachment', { sessionId, attachmentId }).then((response) => {
      if (!current) return;
      if (response.ok) setSource(`data:${response.value.mediaType};base64,${response.value.data}`);
      else setFailed(response.error.message);
    });
    return () => {
      current = false;
    };
  }, [sessionId, attachmentId]);
  if (failed)
    return (
      <span className="attachment-error">
        {name}: {failed}
      </span>
    );
  return source ? <img src={source} alt={name} title={`${name} · ${size}`} /> : <span className="attachment-loading">{name}…</span>;
}
