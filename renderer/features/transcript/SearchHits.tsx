/** The messages of this session a search matched: which one is shown, and the way to the others. */
export interface Hits {
  /** The matching items' keys, in transcript order. */
  keys: string[];
  /** The one shown and highlighted. */
  at: number;
  terms: string[];
  /** Changes each time the person asks to go to a hit, even the one already shown. */
  version: number;
}

export function SearchHits({ hits, onChange }: { hits: Hits; onChange(hits: Hits | null): void }) {
  const count = hits.keys.length;
  const go = (step: number) => onChange({ ...hits, at: (hits.at + step + count) % count, version: hits.version + 1 });
  return (
    <div className="search-hits" role="group" aria-label="Search matches in this session">
      <span role="status">
        Match {hits.at + 1} of {count}
        {hits.terms.length > 0 ? ` for “${hits.terms.join(' ')}”` : ''}
      </span>
      <button type="button" className="small" onClick={() => go(-1)} disabled={count < 2} aria-label="Previous match">
        ↑
      </button>
      <button type="button" className="small" onClick={() => go(1)} disabled={count < 2} aria-label="Next match">
        ↓
      </button>
      <button type="button" className="small" onClick={() => onChange(null)} aria-label="Close search matches">
        ✕
      </button>
    </div>
  );
}
