/**
 * `cove approve`: shows what a workspace brings that runs commands (its hooks and MCP servers,
 * with the file and the command line of each) and approves what is pending, each approval
 * pinned to that item's content. `--list` only shows. Running it is the person's approval, as
 * pressing Approve in the app is.
 */
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { approveProject, projectItems, type ProjectItem } from '../core/hooks/approvals';
import { defaultCoveHome } from '../core/permissions/settings';
import { UsageError, type ApproveArgs } from './args';
import { EXIT } from './exit-codes';

function folder(path: string): string {
  const absolute = resolve(path);
  if (!statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`cove approve: --workspace ${path}: no such folder`);
  return realpathSync(absolute);
}

function line(item: ProjectItem, state: string): string {
  return `${state.padEnd(9)} ${item.kind === 'hook' ? 'hook' : 'MCP server'} ${item.name}: ${item.command}\n          from ${item.file}\n`;
}

export async function approveCommand(args: ApproveArgs): Promise<number> {
  const coveHome = defaultCoveHome();
  const workspaces = (args.workspaces.length > 0 ? args.workspaces : [process.cwd()]).map(folder);
  const report: Array<{ workspace: string; items: ProjectItem[]; approvedNow: string[] }> = [];
  for (const workspace of workspaces) {
    const items = projectItems(coveHome, workspace);
    const approvedNow = args.list ? [] : approveProject(coveHome, workspace).map((item) => item.id);
    report.push({ workspace, items, approvedNow });
  }
  if (args.json) {
    process.stdout.write(
      `${JSON.stringify(report.map(({ workspace, items, approvedNow }) => ({ workspace, items: items.map((item) => ({ ...item, approved: item.approved || approvedNow.includes(item.id) })) })))}\n`,
    );
    return EXIT.ok;
  }
  for (const { workspace, items, approvedNow } of report) {
    if (items.length === 0) {
      process.stdout.write(`${workspace}: no project hooks or MCP servers\n`);
      continue;
    }
    process.stdout.write(`${workspace}:\n`);
    for (const item of items) {
      process.stdout.write(line(item, item.approved ? 'approved' : approvedNow.includes(item.id) ? 'APPROVED' : 'pending'));
    }
    if (args.list && items.some((item) => !item.approved)) process.stdout.write(`run cove approve --workspace ${workspace} to approve the pending ones\n`);
  }
  return EXIT.ok;
}
