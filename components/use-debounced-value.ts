"use client";

import { useEffect, useState } from "react";

/** The value once it has stayed the same for `delay` milliseconds: typing re-asks the server once, not per key. */
export function useDebouncedValue<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
