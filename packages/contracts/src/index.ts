export * from './errors.js';
export * from './languages.js';
export * from './services.js';
export * from './health.js';
export * from './tools.js';
export * from './auth.js';
export * from './plans.js';
export * from './formats.js';
