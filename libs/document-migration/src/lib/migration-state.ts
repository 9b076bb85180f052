/** Migration states; `cancelled` is ours, beyond the spec's four. */
export const MIGRATION_STATES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export type MigrationState = (typeof MIGRATION_STATES)[number];

export type MigrationEvent = 'start' | 'complete' | 'fail' | 'cancel';

/** The only legal moves. The database trigger `enforce_migration_transition` holds the same table. */
const TRANSITIONS: Readonly<Record<MigrationState, Partial<Record<MigrationEvent, MigrationState>>>> = {
  pending: { start: 'in_progress', fail: 'failed', cancel: 'cancelled' },
  in_progress: { complete: 'completed', fail: 'failed', cancel: 'cancelled' },
  completed: {},
  failed: {},
  cancelled: {},
};

export const isTerminal = (state: MigrationState): boolean => Object.keys(TRANSITIONS[state]).length === 0;

/** The state an event leads to, or undefined when the event is illegal in that state. */
export function nextState(from: MigrationState, event: MigrationEvent): MigrationState | undefined {
  return TRANSITIONS[from][event];
}

/** The states from which `event` is legal: the guard every status-changing UPDATE puts in its WHERE clause. */
export function statesAccepting(event: MigrationEvent): MigrationState[] {
  return MIGRATION_STATES.filter((state) => nextState(state, event) !== undefined);
}

export const UNFINISHED_STATES: MigrationState[] = MIGRATION_STATES.filter((state) => !isTerminal(state));
