import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not found" };

/**
 * One page for every record, file or address that is missing OR not readable by the person
 * asking: the two must not differ, or the page would reveal what exists.
 */
export default function NotFound() {
  return (
    <div className="mx-auto mt-8 max-w-lg text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="mt-3 text-stone-700">There is nothing at this address, or it is not available to you.</p>
      <p className="mt-6">
        <Link href="/records" className="btn">
          Back to the records
        </Link>
      </p>
    </div>
  );
}
