/**
 * A stand-in for the `electron` module, enough of it to load the desktop main process under
 * plain Node and drive it: the app lifecycle, windows and their web contents, the protocol,
 * ipcMain, the session's permission handlers, safeStorage, shell and the menu. It records what
 * main asks for; it knows nothing of how Electron enforces any of it (the Electron end-to-end
 * test covers that where a binary exists).
 */
import { EventEmitter } from 'node:events';

export class FakeEvent {
  defaultPrevented = false;
  constructor(props: Record<string, unknown> = {}) {
    Object.assign(this, props);
  }
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export const recorded = {
  privilegedSchemes: [] as unknown[],
  protocolHandlers: new Map<string, (request: { url: string; method: string }) => Promise<Response>>(),
  ipcHandlers: new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>(),
  openedExternally: [] as string[],
  menuTemplate: undefined as unknown,
  errorBoxes: [] as string[],
  notifications: [] as FakeNotification[],
  badgeCounts: [] as number[],
  dockBounces: [] as string[],
  revealed: [] as string[],
  permissionRequest: undefined as undefined | ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void),
  permissionCheck: undefined as undefined | ((...args: unknown[]) => boolean),
  devicePermission: undefined as undefined | ((...args: unknown[]) => boolean),
};

let nextId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextId++;
  readonly sent: { channel: string; payload: unknown }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  mainFrame = { url: 'app://cove/index.html', parent: null as unknown };
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
    this.emit('sent');
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  isDestroyed(): boolean {
    return false;
  }
}

class FakeApp extends EventEmitter {
  isPackaged = false;
  readonly paths = new Map<string, string>([['userData', '/fake/user-data']]);
  appPath = process.cwd();
  state: 'running' | 'quit' = 'running';
  sandboxed = false;
  exitCode: number | undefined;
  private markReady!: () => void;
  private readonly ready = new Promise<void>((resolve) => (this.markReady = resolve));
  getPath(name: string): string {
    return this.paths.get(name) ?? `/fake/${name}`;
  }
  setPath(name: string, value: string): void {
    this.paths.set(name, value);
  }
  enableSandbox(): void {
    this.sandboxed = true;
  }
  requestSingleInstanceLock(): boolean {
    return true;
  }
  whenReady(): Promise<void> {
    return this.ready;
  }
  isReadyNow = false;
  becomeReady(): void {
    this.isReadyNow = true;
    this.markReady();
  }
  isReady(): boolean {
    return this.isReadyNow;
  }
  getVersion(): string {
    return '9.8.7';
  }
  getName(): string {
    return 'Cove';
  }
  getAppPath(): string {
    return this.appPath;
  }
  setBadgeCount(count: number): boolean {
    recorded.badgeCounts.push(count);
    return true;
  }
  readonly dock = {
    bounce(type: string): number {
      recorded.dockBounces.push(type);
      return 1;
    },
  };
  quit(): void {
    const event = new FakeEvent();
    this.emit('will-quit', event);
    if (!event.defaultPrevented) {
      this.state = 'quit';
      this.emit('quit');
    }
  }
  exit(code: number): void {
    this.exitCode = code;
  }
}

export const app = new FakeApp();

export class BrowserWindow extends EventEmitter {
  static readonly windows: BrowserWindow[] = [];
  static focused: BrowserWindow | null = null;
  static getAllWindows(): BrowserWindow[] {
    return [...BrowserWindow.windows];
  }
  static getFocusedWindow(): BrowserWindow | null {
    return BrowserWindow.focused;
  }
  readonly webContents = new FakeWebContents();
  loadedUrl: string | undefined;
  maximized = false;
  flashing = false;
  constructor(readonly options: { webPreferences: Record<string, unknown> } & Record<string, unknown>) {
    super();
    BrowserWindow.windows.push(this);
    app.emit('web-contents-created', new FakeEvent(), this.webContents);
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
  }
  isDestroyed(): boolean {
    return false;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  show(): void {}
  focus(): void {
    BrowserWindow.focused = this;
    app.emit('browser-window-focus', new FakeEvent(), this);
  }
  /** The person switched to another app. */
  blur(): void {
    if (BrowserWindow.focused === this) BrowserWindow.focused = null;
  }
  /** Where the window is; a test moves it by assigning. */
  get bounds() {
    const { x = 0, y = 0, width, height } = this.options as unknown as { x?: number; y?: number; width: number; height: number };
    return this.movedTo ?? { x, y, width, height };
  }
  movedTo: { x: number; y: number; width: number; height: number } | undefined;
  getNormalBounds() {
    return this.bounds;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  maximize(): void {
    this.maximized = true;
  }
  flashFrame(flag: boolean): void {
    this.flashing = flag;
  }
  close(): void {
    this.emit('close', new FakeEvent());
    this.emit('closed');
  }
}

export const screen = {
  displays: [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1050 } }],
  getAllDisplays() {
    return screen.displays;
  },
  getPrimaryDisplay() {
    return screen.displays[0]!;
  },
};

export class FakeNotification extends EventEmitter {
  static supported = true;
  static isSupported(): boolean {
    return FakeNotification.supported;
  }
  shown = false;
  constructor(readonly options: { title: string; body: string }) {
    super();
    recorded.notifications.push(this);
  }
  show(): void {
    this.shown = true;
  }
}
export { FakeNotification as Notification };

export const nativeTheme = { shouldUseDarkColors: true };

export const protocol = {
  // As in Electron: privileges can be given only before the app is ready, a handler only after.
  registerSchemesAsPrivileged(schemes: unknown[]) {
    if (app.isReady()) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
    recorded.privilegedSchemes.push(...schemes);
  },
  handle(scheme: string, handler: (request: { url: string; method: string }) => Promise<Response>) {
    if (!app.isReady()) throw new Error('protocol.handle can only be used after app is ready');
    recorded.protocolHandlers.set(scheme, handler);
  },
};

export const ipcMain = {
  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => Promise<unknown>) {
    recorded.ipcHandlers.set(channel, handler);
  },
  removeHandler(channel: string) {
    recorded.ipcHandlers.delete(channel);
  },
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler(handler: typeof recorded.permissionRequest) {
      recorded.permissionRequest = handler;
    },
    setPermissionCheckHandler(handler: typeof recorded.permissionCheck) {
      recorded.permissionCheck = handler;
    },
    setDevicePermissionHandler(handler: typeof recorded.devicePermission) {
      recorded.devicePermission = handler;
    },
  },
};

export const safeStorage = {
  available: true,
  isEncryptionAvailable(): boolean {
    return safeStorage.available;
  },
  encryptString(text: string): Buffer {
    return Buffer.from(`sealed:${Buffer.from(text).toString('base64')}`);
  },
  decryptString(sealed: Buffer): string {
    return Buffer.from(sealed.toString().replace(/^sealed:/, ''), 'base64').toString();
  },
};

export const shell = {
  async openExternal(url: string): Promise<void> {
    recorded.openedExternally.push(url);
  },
  showItemInFolder(path: string): void {
    recorded.revealed.push(path);
  },
};

export const Menu = {
  buildFromTemplate(template: unknown) {
    return { template };
  },
  setApplicationMenu(menu: { template: unknown }) {
    recorded.menuTemplate = menu.template;
  },
};

export const dialog = {
  showErrorBox(title: string, content: string) {
    recorded.errorBoxes.push(`${title}: ${content}`);
  },
};
