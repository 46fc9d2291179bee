/** Tokens and cost of the session so far (main adds each turn's usage and sends the summary). */
import type { SessionSummary } from '../../../shared/contract';
import { compactNumber, dollars } from '../../ui/format';

export function UsageMeter({ session }: { session: SessionSummary }) {
  const { input, output, cacheRead, cacheWrite } = session.usage;
  const cost = session.costKnown === false ? 'unknown' : dollars(session.costUsd);
  const full = `Input ${input} tokens, output ${output} tokens, cache read ${cacheRead}, cache write ${cacheWrite}, cost ${cost}`;
  return (
    // A plain list of terms: a role on the dl would take its dt and dd out of it (axe: dlitem).
    <dl className="usage-meter" title={full}>
      <div>
        <dt>In</dt>
        <dd>{compactNumber(input)}</dd>
      </div>
      <div>
        <dt>Out</dt>
        <dd>{compactNumber(output)}</dd>
      </div>
      <div>
        <dt>Cache</dt>
        <dd>
          {compactNumber(cacheRead)} read / {compactNumber(cacheWrite)} write
        </dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd data-testid="session-cost">{cost}</dd>
      </div>
    </dl>
  );
}
