import type { ReactNode } from "react";

/** A form control under its visible label; the control itself carries the `id` the label points at. */
export function LabelledField({ htmlFor, label, className, children }: { htmlFor: string; label: ReactNode; className?: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={htmlFor} className="field-label">
        {label}
      </label>
      {children}
    </div>
  );
}
