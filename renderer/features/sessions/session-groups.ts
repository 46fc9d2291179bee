/**
 * The sessions list as the rows it draws: a heading for each group, then its sessions, newest
 * first. By date, the groups are the spans a person thinks in (today, yesterday, the week, the
 * month, then each month); by project, sessions go under their first folder, and folders come
 * in the order of their newest session.
 */
import type { SessionSummary } from '../../../shared/contract';
import type { SessionGrouping } from '../../store/layout-slice';
import { folderName } from '../../ui/format';
import { sortedSessions } from './sorted-sessions';

export type ListRow = { kind: 'group'; key: string; label: string; title?: string } | { kind: 'session'; key: string; session: SessionSummary };

const DAY = 24 * 60 * 60 * 1000;

function startOfDay(time: number): number {
  const date = new Date(time);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

export function dateGroup(updatedAt: number, now: number): { key: string; label: string } {
  return dateGrouper(now)(updatedAt);
}

/**
 * The day boundaries are worked out once per list, not once per session, and each month's
 * label once: toLocaleDateString builds a formatter on every call, which for 10,000 sessions
 * took seconds.
 */
let monthFormat: Intl.DateTimeFormat | null = null;

/**
 * Built on first need and kept: building a DateTimeFormat loads the locale's data, tens of
 * milliseconds of the page's first render, and the newest sessions (the first screen) are all
 * within the named spans and need no month label.
 */
function monthLabel(date: Date): string {
  monthFormat ??= new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'long' });
  return monthFormat.format(date);
}

function dateGrouper(now: number): (updatedAt: number) => { key: string; label: string } {
  const today = startOfDay(now);
  const spans = [
    { from: today, key: 'today', label: 'Today' },
    { from: today - DAY, key: 'yesterday', label: 'Yesterday' },
    { from: today - 7 * DAY, key: 'week', label: 'Previous 7 days' },
    { from: today - 30 * DAY, key: 'month', label: 'Previous 30 days' },
  ];
  const months = new Map<string, { key: string; label: string }>();
  return (updatedAt) => {
    const span = spans.find((candidate) => updatedAt >= candidate.from);
    if (span) return span;
    const date = new Date(updatedAt);
    const key = `${date.getFullYear()}-${date.getMonth()}`;
    let month = months.get(key);
    if (!month) months.set(key, (month = { key, label: monthLabel(date) }));
    return month;
  };
}

/** `sessions` newest first; the rows keep that order inside each group. */
export function groupedRows(sessions: readonly SessionSummary[], grouping: SessionGrouping, now: number): ListRow[] {
  if (grouping === 'date') {
    const rows: ListRow[] = [];
    const groupOf = dateGrouper(now);
    let current: string | null = null;
    for (const session of sessions) {
      const group = groupOf(session.updatedAt);
      if (group.key !== current) {
        current = group.key;
        rows.push({ kind: 'group', key: `group:${group.key}`, label: group.label });
      }
      rows.push({ kind: 'session', key: session.id, session });
    }
    return rows;
  }
  const byFolder = new Map<string, SessionSummary[]>();
  for (const session of sessions) {
    const folder = session.workspaces[0] ?? '';
    const members = byFolder.get(folder);
    if (members) members.push(session);
    else byFolder.set(folder, [session]);
  }
  const names = new Map<string, number>();
  for (const folder of byFolder.keys()) names.set(folderName(folder), (names.get(folderName(folder)) ?? 0) + 1);
  const rows: ListRow[] = [];
  for (const [folder, members] of byFolder) {
    const name = folder === '' ? 'No folder' : folderName(folder);
    // Two projects of one name in different places are told apart by their full path.
    const label = (names.get(name) ?? 0) > 1 ? folder : name;
    rows.push({ kind: 'group', key: `group:${folder}`, label, title: folder || undefined });
    for (const session of members) rows.push({ kind: 'session', key: session.id, session });
  }
  return rows;
}

/** The sessions in the order the list draws them, groups and all: the order Alt+ArrowUp/ArrowDown move through. */
export function listedSessions(sessions: Record<string, SessionSummary>, grouping: SessionGrouping, now: number): SessionSummary[] {
  return groupedRows(sortedSessions(sessions), grouping, now).flatMap((row) => (row.kind === 'session' ? [row.session] : []));
}
