// Stands in for the "server-only" marker package under Vitest, which runs services directly.
export {};
