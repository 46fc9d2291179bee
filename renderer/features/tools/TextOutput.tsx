/** A tool's plain text output (and images), truncated in view with "Show all". */
import { memo, useState } from 'react';
import type { ResultContent } from '../../../shared/events';

const SHOWN_CHARACTERS = 4000;
const SHOWN_LINES = 40;

export const TextOutput = memo(function TextOutput({ content, label }: { content: ResultContent[]; label: string }) {
  const [showAll, setShowAll] = useState(false);
  const text = content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  const images = content.filter((block) => block.type === 'image');
  const lines = text.split('\n');
  const long = text.length > SHOWN_CHARACTERS || lines.length > SHOWN_LINES;
  const shown = showAll || !long ? text : lines.slice(0, SHOWN_LINES).join('\n').slice(0, SHOWN_CHARACTERS);
  return (
    <div className="text-output">
      {text !== '' ? (
        <pre role="group" aria-label={label} tabIndex={0}>
          {shown}
        </pre>
      ) : null}
      {long ? (
        <button type="button" className="link-button" onClick={() => setShowAll(!showAll)}>
          {showAll ? 'Show less' : `Show all (${lines.length} lines)`}
        </button>
      ) : null}
      {images.map((image, index) => (
        <img key={index} className="tool-image" alt={`Image ${index + 1} from the tool`} src={`data:${image.mediaType};base64,${image.data}`} />
      ))}
    </div>
  );
});
