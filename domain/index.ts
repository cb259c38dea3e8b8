export * from './enums';
export * from './access';
export * from './validation';
export * from './api-types';
