/** Determinate when the fraction is known, otherwise an indeterminate bar with elapsed time. */
import { duration } from './format';

export function ProgressBar({ label, fraction, elapsedMs }: { label: string; fraction: number | null; elapsedMs: number }) {
  if (fraction !== null) {
    const percent = Math.round(fraction * 100);
    return (
      <div className="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={`${percent}%`}>
        <div className="progress-fill" style={{ width: `${percent}%` }} />
        <span className="progress-text">{percent}%</span>
      </div>
    );
  }
  return (
    <div className="progress indeterminate" role="progressbar" aria-label={label} aria-valuetext={`running for ${duration(elapsedMs)}`}>
      <div className="progress-fill" />
      <span className="progress-text">{duration(elapsedMs)}</span>
    </div>
  );
}
