/**
 * How long each try of a version probe may take. Starting a program takes seconds on a busy
 * machine (10 s has passed under load), and one slow start must not disable a tool for the
 * process's whole life: a probe that times out is tried again, longer.
 */
export const PROBE_TRIES_MS = [10_000, 30_000, 60_000];
