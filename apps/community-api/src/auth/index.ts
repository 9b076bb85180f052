export * from './community-request';
export * from './project.guard';
export * from './caller.guard';
export * from './decorators';
