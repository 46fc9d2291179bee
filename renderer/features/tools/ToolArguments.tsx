/** A call's arguments, drawn by what each one is (./tool-arguments.ts), not as JSON. */
import { memo, useMemo } from 'react';
import type { ToolKind } from '../../../shared/events';
import { CopyButton } from '../../ui/CopyButton';
import { languageForPath } from '../../ui/highlight';
import { CodeView } from './CodeView';
import { DiffView } from './DiffView';
import { describeArguments, editDiff, type ArgumentView } from './tool-arguments';

interface Props {
  args: unknown;
  kind: ToolKind | undefined;
  label: string;
  /** The result carries the edit's real diff: the arguments' old and new text would repeat it. */
  hasResultDiff: boolean;
}

export const ToolArguments = memo(function ToolArguments({ args, kind, label, hasResultDiff }: Props) {
  const views = useMemo(() => describeArguments(args, kind), [args, kind]);
  if (views.length === 0) return null;
  return (
    <div className="tool-arguments-view" role="group" aria-label={label}>
      {views.map((view, index) => (
        <ArgumentRow key={index} view={view} hasResultDiff={hasResultDiff} />
      ))}
    </div>
  );
});

function ArgumentRow({ view, hasResultDiff }: { view: ArgumentView; hasResultDiff: boolean }) {
  switch (view.type) {
    case 'command':
      return (
        <div className="argument argument-block">
          <div className="argument-head">
            <span className="argument-name">{view.name}</span>
            <CopyButton text={view.text} what="command" />
          </div>
          <CodeView text={view.text} language="bash" className="argument-code" />
        </div>
      );
    case 'path':
      return (
        <div className="argument">
          <span className="argument-name">{view.name}</span> <code className="argument-path">{view.path}</code>
        </div>
      );
    case 'diff':
      if (hasResultDiff) return view.path === null ? null : <PathRow path={view.path} />;
      return (
        <div className="argument argument-block">
          {view.path === null ? null : <PathRow path={view.path} />}
          <DiffView diff={editDiff(view.path, view.oldText, view.newText)} />
        </div>
      );
    case 'file':
      return (
        <div className="argument argument-block">
          <div className="argument-head">
            <span className="argument-name">content</span>
            <CopyButton text={view.text} what="content" />
          </div>
          <CodeView text={view.text} language={languageForPath(view.path)} firstLine={1} className="argument-code" />
        </div>
      );
    case 'pattern':
      return (
        <div className="argument">
          <span className="argument-name">{view.name}</span> <code className="argument-pattern">{view.text}</code>
        </div>
      );
    case 'value':
      return view.block ? (
        <div className="argument argument-block">
          <span className="argument-name">{view.name}</span>
          <pre className="argument-value">{view.text}</pre>
        </div>
      ) : (
        <div className="argument">
          <span className="argument-name">{view.name}</span> <span className="argument-value">{view.text}</span>
        </div>
      );
  }
}

function PathRow({ path }: { path: string }) {
  return (
    <div className="argument">
      <span className="argument-name">path</span> <code className="argument-path">{path}</code>
    </div>
  );
}
