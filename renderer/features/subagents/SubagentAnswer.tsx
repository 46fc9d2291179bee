/** A subagent's answer in its tool card: the model wrote markdown, so it is drawn as markdown. */
import { memo } from 'react';
import type { ResultContent } from '../../../shared/events';
import { Markdown } from '../transcript/Markdown';

export const SubagentAnswer = memo(function SubagentAnswer({ content, label }: { content: ResultContent[]; label: string }) {
  const text = content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  return (
    <div className="subagent-answer" role="group" aria-label={label}>
      <Markdown text={text} />
    </div>
  );
});
