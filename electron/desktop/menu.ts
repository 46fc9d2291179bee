/**
 * The native menu: the platform's usual roles and shortcuts, plus New Session, which the page
 * handles (main only asks; the renderer owns the screen).
 */
import { Menu, type MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  appName: string;
  platform: NodeJS.Platform;
  /** Developer tools only in unpackaged runs. */
  packaged: boolean;
  /** The Help menu's link, when the package names one. */
  docsUrl: string | undefined;
  newSession(): void;
  openLink(url: string): void;
}

export function installMenu(options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(options)));
}

function menuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const appMenu: MenuItemConstructorOptions = {
    label: options.appName,
    submenu: [
      { role: 'about' },
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit' },
    ],
  };
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      {
        label: 'New Session',
        accelerator: 'CmdOrCtrl+N',
        click: () => options.newSession(),
      },
      { type: 'separator' },
      { role: 'close', label: 'Close Window' },
      ...(mac ? [] : [{ type: 'separator' } as const, { role: 'quit' } as const]),
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(options.packaged ? [] : [{ role: 'forceReload' } as const, { role: 'toggleDevTools' } as const]),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const windowMenu: MenuItemConstructorOptions = {
    role: 'window',
    submenu: [{ role: 'minimize' }, { role: 'zoom' }, ...(mac ? [{ type: 'separator' } as const, { role: 'front' } as const] : [])],
  };
  const docsUrl = options.docsUrl;
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [...(docsUrl ? [{ label: 'Cove Documentation', click: () => options.openLink(docsUrl) }] : []), ...(mac ? [] : [{ role: 'about' } as const])],
  };
  return [...(mac ? [appMenu] : []), file, edit, view, windowMenu, help];
}
