/**
 * The preload: contextBridge only. It runs sandboxed, so it is bundled into one CommonJS file
 * with `electron` as its only require (scripts/build-desktop.mjs). The request names are
 * written in at build time from shared/contract.ts, which keeps zod out of this bundle.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createBridgeApi } from './bridge-api';

declare const COVE_REQUEST_NAMES: readonly string[];

contextBridge.exposeInMainWorld(
  'cove',
  createBridgeApi(COVE_REQUEST_NAMES, ipcRenderer, (file: Parameters<typeof webUtils.getPathForFile>[0]) => webUtils.getPathForFile(file)),
);
