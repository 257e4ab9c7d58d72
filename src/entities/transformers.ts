import type { ValueTransformer } from 'typeorm';

/** Postgres bigint arrives as a string; every amount here fits a JS number (< 2^53). */
export const bigintNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
