export * from './enforceable-policy';
export * from './policy-set';
export * from './policy-enforcement.settings';
export * from './policy-cache';
export * from './policy-enforcer';
export * from './policy-enforcement.module';
