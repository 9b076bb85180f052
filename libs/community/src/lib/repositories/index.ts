export * from './project.repository';
export * from './user.repository';
export * from './refresh-token.repository';
