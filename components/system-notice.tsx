import "server-only";
import { type Principal, isAdmin } from "@/lib/acl";
import { checkSystem, missingCapabilities, packagesToInstall } from "@/lib/system-packages";

/**
 * What this installation lacks and what it costs (lib/system-packages.ts): to an administrator
 * with the command that fixes it, on every page; to everyone else in their terms, on the search
 * page. Nothing when everything is installed.
 */
export async function SystemNotice({ principal }: { principal: Principal }) {
  const missing = missingCapabilities(await checkSystem());
  if (missing.length === 0) return null;
  const admin = isAdmin(principal);
  return (
    <section
      aria-labelledby="system-notice-heading"
      data-testid="system-notice"
      className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      <h2 id="system-notice-heading" className="font-semibold">
        {admin ? "This installation is missing packages" : "On this installation"}
      </h2>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {missing.map((capability) => (
          <li key={capability.name}>
            {admin && <span className="font-medium">{capability.name[0]!.toUpperCase() + capability.name.slice(1)}: </span>}
            {capability.cost}
          </li>
        ))}
      </ul>
      {admin && (
        <p className="mt-2">
          Install them on the server, then restart Mnemo:{" "}
          <code className="rounded bg-white px-1">sudo apt-get install -y {packagesToInstall(missing).join(" ")}</code>
        </p>
      )}
    </section>
  );
}
