export * from './envelope.js';
export * from './errors.js';
export * from './roles.js';
export * from './permissions.js';
export * from './tenant-settings.js';
export * from './limits.js';
export * from './system.js';
