import { SectionOptions } from "./select-options";
import { LabelledField } from "./labelled-field";

/** "New record" when no section is chosen yet: pick one, then open the form for it. */
export function NewRecordPicker({ sections, id = "new-record-section" }: { sections: { slug: string; name: string }[]; id?: string }) {
  return (
    <form action="/records/new" method="get" className="flex items-end gap-2">
      <LabelledField htmlFor={id} label="New record in">
        <select id={id} name="section" required defaultValue="" className="field-input">
          <option value="" disabled>
            Choose a section…
          </option>
          <SectionOptions sections={sections} />
        </select>
      </LabelledField>
      <button type="submit" className="btn btn-primary">
        New record
      </button>
    </form>
  );
}
