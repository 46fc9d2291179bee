/** Secret redaction: what the engine and the session manager need from this folder. */
export { SecretSet, MIN_SECRET_LENGTH, type FromWorkspaceOptions, type SecretSetOptions, type SecretValue } from './secret-set';
export { BUILT_IN_PATTERNS, type SecretPattern } from './patterns';
export { environmentSecrets, isSecretFile, secretValuesOf, type WorkspaceScanOptions } from './secret-files';
// The engine's deep redaction of results lives with the engine; it is offered here as well so
// that callers holding a SecretSet find everything about redaction in one place.
export { redactDeep } from '../agent/redaction';
