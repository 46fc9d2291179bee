/** Says when the browser host is unreachable or refuses this page; silent while connected. */
import { useCove } from '../store';

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
  return (
    <div role="status" className="banner banner-warning">
      Reconnecting… ({connection.reason}; attempt {connection.attempt}).{hint}
    </div>
  );
}
