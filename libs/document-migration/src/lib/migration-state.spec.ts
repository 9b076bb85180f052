import fc from 'fast-check';
import {
  isTerminal,
  MIGRATION_STATES,
  MigrationEvent,
  MigrationState,
  nextState,
  statesAccepting,
  UNFINISHED_STATES,
} from './migration-state';

const EVENTS: MigrationEvent[] = ['start', 'complete', 'fail', 'cancel'];

describe('migration state machine', () => {
  it('has exactly the legal moves', () => {
    const moves = MIGRATION_STATES.flatMap((from) =>
      EVENTS.map((event) => [from, event, nextState(from, event)] as const),
    ).filter(([, , to]) => to);
    expect(moves).toEqual([
      ['pending', 'start', 'in_progress'],
      ['pending', 'fail', 'failed'],
      ['pending', 'cancel', 'cancelled'],
      ['in_progress', 'complete', 'completed'],
      ['in_progress', 'fail', 'failed'],
      ['in_progress', 'cancel', 'cancelled'],
    ]);
  });

  it('never leaves a terminal state and never returns to pending (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...EVENTS), { maxLength: 20 }), (events) => {
        let state: MigrationState = 'pending';
        const seen: MigrationState[] = [state];
        for (const event of events) {
          const next = nextState(state, event);
          if (isTerminal(state)) expect(next).toBeUndefined();
          if (next) {
            expect(next).not.toBe('pending');
            state = next;
            seen.push(state);
          }
        }
        expect(seen.filter((s) => isTerminal(s)).length).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('derives the guard states used in UPDATE ... WHERE status = ANY(...)', () => {
    expect(statesAccepting('start')).toEqual(['pending']);
    expect(statesAccepting('complete')).toEqual(['in_progress']);
    expect(statesAccepting('fail')).toEqual(['pending', 'in_progress']);
    expect(UNFINISHED_STATES).toEqual(['pending', 'in_progress']);
  });
});
