/** The problems with one form field, each on its own line under the control. */
export function FieldErrors({ messages }: { messages?: readonly string[] }) {
  return (messages ?? []).map((message) => (
    <span key={message} className="field-error block">
      {message}
    </span>
  ));
}
