/** Toasts: errors from main stay until dismissed; confirmations fade on their own. */
import { createPortal } from 'react-dom';
import { useCove } from '../store';
import { useTopDialog } from '../ui/dialog-stack';
import type { Notice } from '../store/notices-slice';

export function Notices() {
  const notices = useCove((state) => state.notices);
  // While a modal dialog is open the page behind it is inert and under its backdrop, so the
  // toasts move into the dialog: a save's confirmation or error is seen and can be dismissed.
  const dialog = useTopDialog();
  const section = (
    // A section, so its name is a region's: a name on a bare div is not announced (axe: aria-prohibited-attr).
    <section className="notices" aria-label="Notifications">
      <NoticeList role="alert" notices={notices.filter((notice) => notice.tone === 'error')} />
      <NoticeList role="status" notices={notices.filter((notice) => notice.tone === 'info')} />
    </section>
  );
  return dialog ? createPortal(section, dialog) : section;
}

function NoticeList({ role, notices }: { role: 'alert' | 'status'; notices: Notice[] }) {
  const dismiss = useCove((state) => state.dismissNotice);
  const openSettings = useCove((state) => state.openSettings);
  return (
    <div role={role} className="notices-list">
      {notices.map((notice) => (
        <div key={notice.id} className={`notice notice-${notice.tone}`}>
          <span className="notice-text">{notice.message}</span>
          {notice.action === 'openSettings' ? (
            <button
              type="button"
              className="small"
              onClick={() => {
                dismiss(notice.id);
                openSettings();
              }}
            >
              Open Settings
            </button>
          ) : null}
          <button type="button" className="icon-button" aria-label={`Dismiss: ${notice.message}`} onClick={() => dismiss(notice.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
