/**
 * A notice above the transcript when a session's folder brings hooks or MCP servers that have
 * not been approved: what would run (each command line and the file that declares it) and one
 * Approve button for exactly those. Until then Cove does not run them.
 */
import { useEffect } from 'react';
import type { ProjectApprovalItem } from '../../../shared/contract';
import { useCove } from '../../store';

export function ProjectApprovals({ workspaces }: { workspaces: readonly string[] }) {
  const load = useCove((state) => state.loadApprovals);
  const key = workspaces.join('\n');
  useEffect(() => {
    for (const workspace of key.split('\n')) void load(workspace);
  }, [key, load]);
  return (
    <>
      {workspaces.map((workspace) => (
        <WorkspaceApprovals key={workspace} workspace={workspace} />
      ))}
    </>
  );
}

function WorkspaceApprovals({ workspace }: { workspace: string }) {
  const view = useCove((state) => state.approvals[workspace]);
  const busy = useCove((state) => state.approvalsBusy[workspace] === true);
  const approve = useCove((state) => state.approveProject);
  const pending = view?.items.filter((item) => !item.approved) ?? [];
  const problems = view?.problems ?? [];
  if (pending.length === 0 && problems.length === 0) return null;
  return (
    <section className="project-approvals" role="region" aria-label={`Project hooks and MCP servers of ${workspace}`}>
      {pending.length > 0 ? (
        <>
          <p>
            <strong>This folder brings commands that have not run:</strong> Cove runs a project’s hooks and MCP servers only once you approve them, and asks again when one changes.
          </p>
          <ul aria-label="Waiting for approval">
            {pending.map((item) => (
              <PendingItem key={item.id} item={item} />
            ))}
          </ul>
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void approve(
                workspace,
                pending.map((item) => item.id),
              )
            }
          >
            Approve {pending.length === 1 ? 'it' : `these ${pending.length}`}
          </button>
        </>
      ) : null}
      {problems.length > 0 ? (
        <ul className="problems" aria-label="Approval problems">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function PendingItem({ item }: { item: ProjectApprovalItem }) {
  return (
    <li aria-label={`${item.kind === 'hook' ? 'Hook' : 'MCP server'} ${item.name}`}>
      <span className="badge">{item.kind === 'hook' ? 'hook' : 'MCP server'}</span> <strong>{item.name}</strong> <code>{item.command}</code>
      <div className="hint">from {item.file}</div>
    </li>
  );
}
