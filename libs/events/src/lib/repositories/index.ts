export * from './event.repository';
export * from './event-file.repository';
export * from './rsvp.repository';
export * from './space.repository';
export * from './upload-journal.repository';
export * from './event-list.statement';
