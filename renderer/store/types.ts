/** The whole renderer state: one store composed of feature slices. */
import type { ComposerSlice } from './composer-slice';
import type { ConnectionSlice } from './connection-slice';
import type { LayoutSlice } from './layout-slice';
import type { NoticesSlice } from './notices-slice';
import type { McpSlice } from './mcp-slice';
import type { ApprovalsSlice } from './approvals-slice';
import type { PermissionsSlice } from './permissions-slice';
import type { PersonasSlice } from './personas-slice';
import type { PromptImagesSlice } from './prompt-images-slice';
import type { SessionsSlice } from './sessions-slice';
import type { SettingsSlice } from './settings-slice';
import type { TranscriptSlice } from './transcript-slice';
import type { WorkspaceSlice } from './workspace-slice';

export type CoveState = SessionsSlice &
  TranscriptSlice &
  PermissionsSlice &
  ComposerSlice &
  SettingsSlice &
  ConnectionSlice &
  NoticesSlice &
  WorkspaceSlice &
  PersonasSlice &
  McpSlice &
  PromptImagesSlice &
  ApprovalsSlice &
  LayoutSlice;
