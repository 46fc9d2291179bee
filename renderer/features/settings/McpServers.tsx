/**
 * MCP servers of the open session's folder: state, tools, the error that stopped one (shown
 * as main wrote it: for a project server not yet approved it names the line to add), the end
 * of its stderr, and configuration files that could not be used.
 */
import { useEffect } from 'react';
import type { McpServerView } from '../../../shared/contract';
import { useCove } from '../../store';
import { mcpStateLabel, stderrShown } from './mcp-display';

const SETTLING_POLL_MS = 1000;

export function McpServers() {
  const workspace = useCove((state) => state.settingsWorkspace);
  const status = useCove((state) => state.mcpStatus);
  const error = useCove((state) => state.mcpError);
  const loading = useCove((state) => state.mcpLoading);
  const load = useCove((state) => state.loadMcpStatus);
  const settling = status?.servers.some((server) => server.state === 'starting' || server.state === 'restarting') === true;

  // Servers on their way are asked about again until they settle (or the dialog closes).
  useEffect(() => {
    if (!settling) return;
    const timer = setTimeout(() => void load(), SETTLING_POLL_MS);
    return () => clearTimeout(timer);
  }, [status, settling, load]);

  const servers = status?.servers ?? [];
  const problems = status?.problems ?? [];
  return (
    <section className="settings-section" aria-labelledby="settings-mcp">
      <div className="section-heading">
        <h3 id="settings-mcp">MCP servers{workspace ? ` for ${workspace}` : ''}</h3>
        {workspace ? (
          <button type="button" className="small" disabled={loading} onClick={() => void load()}>
            Refresh
          </button>
        ) : null}
      </div>
      {!workspace ? <p className="hint">Open a session to see the MCP servers of its folder.</p> : null}
      {error ? (
        <p role="alert" className="inline-error">
          {error}
        </p>
      ) : null}
      {workspace && !status && !error ? <p role="status">Asking the MCP servers…</p> : null}
      {status && servers.length === 0 && problems.length === 0 ? (
        <p className="hint">No MCP servers: declare them in the folder’s .mcp.json, or in mcp.json of Cove’s own settings folder.</p>
      ) : null}
      {servers.length > 0 ? (
        <ul className="mcp-servers" aria-label="MCP servers">
          {servers.map((server) => (
            <McpServerRow key={server.name} server={server} />
          ))}
        </ul>
      ) : null}
      {problems.length > 0 ? (
        <>
          <h4 className="mcp-problems-title">Configuration problems</h4>
          <ul className="problems" aria-label="MCP configuration problems">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function McpServerRow({ server }: { server: McpServerView }) {
  const state = mcpStateLabel(server);
  const stderr = stderrShown(server.stderrTail);
  return (
    <li className={`mcp-server mcp-${state.tone}`} aria-label={`MCP server ${server.name}`}>
      <div className="mcp-server-head">
        <strong className="mcp-name">{server.name}</strong>
        <span className="badge">{server.transport}</span>
        <span className={`badge mcp-state mcp-state-${state.tone}`} data-mcp-state={server.state}>
          <span aria-hidden="true">{state.icon}</span> <span>{state.label}</span>
        </span>
        {server.state === 'connected' ? (
          <span className="mcp-tools">
            {server.toolCount} {server.toolCount === 1 ? 'tool' : 'tools'}
          </span>
        ) : null}
      </div>
      {server.error ? <p className="mcp-error">{server.error}</p> : null}
      {server.warnings?.length ? (
        <ul className="mcp-warnings" aria-label={`Tools of ${server.name} left out`}>
          {server.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
      {stderr ? (
        <details className="mcp-stderr">
          <summary>stderr</summary>
          <pre role="group" aria-label={`stderr of ${server.name}`} tabIndex={0}>
            {stderr}
          </pre>
        </details>
      ) : null}
    </li>
  );
}
