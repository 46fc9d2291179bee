/** Says when the browser host is unreachable; silent while connected. */
import { useCove } from '../store';

export function ConnectionBanner() {
  const connection = useCove((state) => state.connection);
  const missingToken = useCove((state) => state.missingToken);
  if (connection.status === 'open') return null;
  if (connection.status === 'failed') {
    return (
      <div role="alert" className="banner banner-error">
        {connection.message}
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
