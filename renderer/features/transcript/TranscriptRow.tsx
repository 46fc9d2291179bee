/** One transcript item, by kind. Memoized on the item object, which the fold replaces only when it changes. */
import { memo } from 'react';
import { PermissionCard } from '../permissions/PermissionCard';
import { ToolCard } from '../tools/ToolCard';
import { MessageView } from './MessageView';
import { PromptAttachments } from './PromptAttachments';
import type { TranscriptItem } from './model-types';
import { CompactionNotice, LoopNotice, ResumeNotice, RetryNotice, RunEndMarker, SubagentMarker } from './EventNotices';
import { HookNotice } from './HookNotice';
import { RewindControl } from '../checkpoints/RewindControl';
import { RestoreMarker } from '../checkpoints/RestoreMarker';
import { CopyButton } from '../../ui/CopyButton';

interface Props {
  item: TranscriptItem;
  sessionId: string;
  newestPending: boolean;
}

export const TranscriptRow = memo(function TranscriptRow({ item, sessionId, newestPending }: Props) {
  switch (item.kind) {
    case 'user':
      return (
        <article className={`item user-prompt${item.steered ? ' steered' : ''}`} aria-label="Your message">
          <div className="speaker">
            You
            {item.steered ? (
              <span className="steering-state" role="status" data-steering={item.read ? 'read' : item.stopped ? 'stopped' : 'sent'}>
                {item.read ? '· read by the agent' : item.stopped ? '· not read: the run was stopped first' : '· sent to the running agent, not read yet'}
              </span>
            ) : null}
          </div>
          <div className="user-text">{item.text}</div>
          <div className="message-actions">
            <CopyButton text={item.text} what="message" />
          </div>
          {item.attachments && item.attachments.length > 0 ? <PromptAttachments sessionId={sessionId} attachments={item.attachments} /> : null}
          {item.answer !== undefined ? <p className="command-answer">{item.answer}</p> : <RewindControl sessionId={sessionId} itemKey={item.key} text={item.text} />}
        </article>
      );
    case 'assistant':
      return <MessageView item={item} />;
    case 'tool':
      return <ToolCard item={item} />;
    case 'permission':
      return <PermissionCard item={item} newestPending={newestPending} />;
    case 'retry':
      return <RetryNotice item={item} />;
    case 'compaction':
      return <CompactionNotice item={item} />;
    case 'loop':
      return <LoopNotice item={item} />;
    case 'hook':
      return <HookNotice item={item} />;
    case 'runEnd':
      return <RunEndMarker item={item} sessionId={sessionId} />;
    case 'resume':
      return <ResumeNotice />;
    case 'subagent':
      return <SubagentMarker item={item} sessionId={sessionId} />;
    case 'restore':
      return <RestoreMarker item={item} sessionId={sessionId} renderItem={(inner) => <TranscriptRow item={inner} sessionId={sessionId} newestPending={false} />} />;
  }
});
