export default function RecordsLoading() {
  return (
    <div aria-busy="true" aria-live="polite" className="space-y-6">
      <p className="sr-only">Loading records…</p>
      <div className="h-9 w-48 animate-pulse rounded bg-stone-200" />
      <div className="h-40 animate-pulse rounded-lg border border-stone-200 bg-white" />
      <div className="space-y-2 rounded-lg border border-stone-200 bg-white p-4">
        {Array.from({ length: 8 }, (_, index) => (
          <div key={index} className="h-5 animate-pulse rounded bg-stone-100" />
        ))}
      </div>
    </div>
  );
}
