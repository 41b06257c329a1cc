/** What a server action answered: success announced politely, a failure as an alert. */
export type ActionMessage = { kind: "ok" | "error"; text: string } | null;

export function ActionFeedback({ message, spacing = "mt-1" }: { message: ActionMessage; spacing?: string }) {
  return (
    <>
      <p aria-live="polite" className={spacing ? `${spacing} text-sm text-emerald-800` : "text-sm text-emerald-800"}>
        {message?.kind === "ok" ? message.text : ""}
      </p>
      {message?.kind === "error" && (
        <div role="alert" className={spacing ? `notice-error ${spacing}` : "notice-error"}>
          {message.text}
        </div>
      )}
    </>
  );
}
