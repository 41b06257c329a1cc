import { SectionOptions } from "./select-options";

/** "New record" when no section is chosen yet: pick one, then open the form for it. */
export function NewRecordPicker({ sections, id = "new-record-section" }: { sections: { slug: string; name: string }[]; id?: string }) {
  return (
    <form action="/records/new" method="get" className="flex items-end gap-2">
      <div>
        <label htmlFor={id} className="field-label">
          New record in
        </label>
        <select id={id} name="section" required defaultValue="" className="field-input">
          <option value="" disabled>
            Choose a section…
          </option>
          <SectionOptions sections={sections} />
        </select>
      </div>
      <button type="submit" className="btn btn-primary">
        New record
      </button>
    </form>
  );
}
