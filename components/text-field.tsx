import type { InputHTMLAttributes, ReactNode } from "react";
import { FieldErrors } from "./field-errors";
import { LabelledField } from "./labelled-field";

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange"> & {
  id: string;
  label: ReactNode;
  value: string;
  onValueChange: (value: string) => void;
  /** The server's problems with this field: the input is marked invalid and each is shown under it. */
  errors?: readonly string[];
  hint?: ReactNode;
};

/** A labelled text input of a client form, with its hint and its problems under it. */
export function TextField({ id, label, value, onValueChange, errors, hint, className = "field-input", ...props }: TextFieldProps) {
  return (
    <LabelledField htmlFor={id} label={label}>
      <input
        {...props}
        id={id}
        className={className}
        value={value}
        aria-invalid={errors ? true : undefined}
        onChange={(event) => onValueChange(event.target.value)}
      />
      {hint && <span className="field-hint block">{hint}</span>}
      <FieldErrors messages={errors} />
    </LabelledField>
  );
}
