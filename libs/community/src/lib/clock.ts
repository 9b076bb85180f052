import { Injectable } from '@nestjs/common';

/** Time source for token lifetimes; tests replace it to expire tokens without waiting. */
export abstract class Clock {
  abstract now(): Date;
}

/** The wall clock. */
@Injectable()
export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
