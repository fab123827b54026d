export * from './messages';
export * from './request-status';
export * from './reference-lists';
export * from './request-dates';
export * from './request-lifecycle.machine';
export * from './notification-template';
export * from './credentialing-request';
export * from './policy-years';
