/** The padlock shown beside a restricted project's name. */
export function LockIcon({ label }: { label: string }) {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" role="img" aria-label={label} className="inline-block shrink-0 text-stone-500">
      <title>{label}</title>
      <path
        fill="currentColor"
        d="M8 1a3.5 3.5 0 0 0-3.5 3.5V6H4a1.5 1.5 0 0 0-1.5 1.5v6A1.5 1.5 0 0 0 4 15h8a1.5 1.5 0 0 0 1.5-1.5v-6A1.5 1.5 0 0 0 12 6h-.5V4.5A3.5 3.5 0 0 0 8 1Zm2 5H6V4.5a2 2 0 1 1 4 0V6Z"
      />
    </svg>
  );
}
