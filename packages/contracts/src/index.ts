export * from './api.ts';
export * from './auth.ts';
export * from './constants.ts';
export * from './permissions.ts';
export * from './reference-data.ts';
export * from './validation-messages.ts';
export * from './routes.ts';
