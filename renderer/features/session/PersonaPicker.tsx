/**
 * The persona a session acts as, from the `.cove/personas/` files of its folders, with "None".
 * Shown only where there is a choice (or a persona is active). Persona files that could not be
 * read are a small warning at the end of the header's controls (PersonaProblems).
 */
import { useEffect } from 'react';
import type { SessionSummary } from '../../../shared/contract';
import { useCove } from '../../store';

export function PersonaPicker({ session }: { session: SessionSummary }) {
  const list = useCove((state) => state.personas[session.id]);
  const busy = useCove((state) => state.settingPersona[session.id] === true);
  const loadPersonas = useCove((state) => state.loadPersonas);
  const setPersona = useCove((state) => state.setPersona);
  const folders = session.workspaces.join('\n');

  // A folder added to the session may bring its own personas.
  useEffect(() => {
    void loadPersonas(session.id);
  }, [session.id, folders, loadPersonas]);

  const active = session.persona;
  if (!list || (list.personas.length === 0 && active === null)) return null;
  const current = list.personas.find((persona) => persona.name === active);
  return (
    <label className="inline-field" title={current?.description || undefined}>
      <span>Persona</span>
      <select value={active ?? ''} disabled={busy} onChange={(event) => void setPersona(session.id, event.target.value || null)}>
        <option value="">None</option>
        {list.personas.map((persona) => (
          <option key={persona.name} value={persona.name} title={persona.description || undefined}>
            {persona.name}
          </option>
        ))}
        {active !== null && !current ? <option value={active}>{active} (its file is gone)</option> : null}
      </select>
    </label>
  );
}

export function PersonaProblems({ sessionId }: { sessionId: string }) {
  const problems = useCove((state) => state.personas[sessionId]?.problems);
  if (!problems || problems.length === 0) return null;
  return (
    <details className="persona-problems">
      <summary>
        <span aria-hidden="true">⚠</span> {problems.length === 1 ? '1 persona file has a problem' : `${problems.length} persona files have problems`}
      </summary>
      <ul>
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </details>
  );
}
