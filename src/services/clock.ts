/** The services' only source of time, so tests can move it (key expiry, sessions, throttling). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
