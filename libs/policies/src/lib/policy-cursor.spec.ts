import fc from 'fast-check';
import { decodeCursor, encodeCursor } from './policy-cursor';
import { PoliciesError, PoliciesErrorCode } from './policies.errors';

const isInvalidCursor = (error: unknown) =>
  error instanceof PoliciesError && error.code === PoliciesErrorCode.INVALID_CURSOR;

describe('policy cursor', () => {
  it('round-trips any position', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4102444800000 }),
        fc.stringMatching(/^[A-Za-z0-9_-]{1,26}$/),
        (millis, id) => {
          const decoded = decodeCursor(encodeCursor({ createdAt: new Date(millis), id }));
          return decoded.createdAt.getTime() === millis && decoded.id === id;
        },
      ),
    );
  });

  it.each([
    '',
    'not a cursor',
    'bm90LWpzb24',
    Buffer.from('[2,1,"a"]').toString('base64url'),
    Buffer.from('[1,-1,"a"]').toString('base64url'),
    Buffer.from('[1,1,"a b"]').toString('base64url'),
    Buffer.from('{"a":1}').toString('base64url'),
  ])('rejects %j as an invalid cursor', (text) => {
    let thrown: unknown;
    try {
      decodeCursor(text);
    } catch (error) {
      thrown = error;
    }
    expect(isInvalidCursor(thrown)).toBe(true);
  });

  it('never throws anything but the invalid-cursor error', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        try {
          decodeCursor(text);
          return true;
        } catch (error) {
          return isInvalidCursor(error);
        }
      }),
    );
  });
});
