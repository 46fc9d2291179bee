/** Says when the browser host is unreachable or refuses this page, and that Send and Stop wait; silent while connected. */
import { useCove } from '../store';

/** The transport's reason when a socket that was open closed: the banner's own words say it. */
const LOST = 'the connection to Cove was lost';

export function ConnectionBanner() {
  const connection = useCove((state) => state.connection);
  const missingToken = useCove((state) => state.missingToken);
  if (connection.status === 'open') return null;
  if (connection.status === 'failed') {
    // A reload helps once the printed address was opened in another tab: it left a fresh cookie.
    return (
      <div role="alert" className="banner banner-error">
        <span>{connection.message}</span>{' '}
        <button type="button" className="small" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
  if (connection.status === 'connecting') {
    return (
      <div role="status" className="banner">
        Connecting…
      </div>
    );
  }
  const hint = missingToken ? ' If this keeps failing, open the full address that `cove serve` printed (it carries the access token).' : '';
  // Runs go on in Cove while the page is away; only this page's link is lost.
  return (
    <div role="alert" className="banner banner-error connection-lost">
      <strong>Lost the connection to Cove.</strong> {connection.reason === LOST ? '' : `${connection.reason}. `}Reconnecting… (attempt {connection.attempt}). Send and Stop wait until it is
      back; what you type is kept.{hint}
    </div>
  );
}
