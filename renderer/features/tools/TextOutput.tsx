/**
 * A tool's text output (and images), truncated in view with "Show all". Markers written for the
 * model are left out (./tool-markers.ts); a read_file page shows as the file it is, with its
 * line numbers in a gutter and syntax colour.
 */
import { memo, useState } from 'react';
import type { ResultContent } from '../../../shared/events';
import { CopyButton } from '../../ui/CopyButton';
import { languageForPath } from '../../ui/highlight';
import { CodeView } from './CodeView';
import { parseNumberedFile, stripMarkers } from './tool-markers';

const SHOWN_CHARACTERS = 4000;
const SHOWN_LINES = 40;

export function outputText(content: readonly ResultContent[]): string {
  return content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

export const TextOutput = memo(function TextOutput({ content, label }: { content: ResultContent[]; label: string }) {
  const [showAll, setShowAll] = useState(false);
  const raw = outputText(content);
  const file = parseNumberedFile(raw);
  const text = file ? file.lines.join('\n') : stripMarkers(raw);
  const images = content.filter((block) => block.type === 'image');
  const lines = text.split('\n');
  const long = text.length > SHOWN_CHARACTERS || lines.length > SHOWN_LINES;
  const shown = showAll || !long ? text : lines.slice(0, SHOWN_LINES).join('\n').slice(0, SHOWN_CHARACTERS);
  return (
    <div className="text-output">
      {text !== '' ? (
        <div className="output-frame">
          <CopyButton text={text} what="output" className="output-copy" />
          {file ? (
            <CodeView text={shown} language={languageForPath(file.path)} firstLine={file.firstLine} label={label} className="file-view" />
          ) : (
            <pre role="group" aria-label={label} tabIndex={0}>
              {shown}
            </pre>
          )}
        </div>
      ) : null}
      {file?.note ? <p className="output-note">{file.note}</p> : null}
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
