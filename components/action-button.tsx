"use client";

import type { ButtonHTMLAttributes, ReactNode } from "react";
import type { ActionResult } from "@/lib/action-result";
import { BusyButton } from "./busy-button";
import { useServerAction } from "./use-server-action";

type ActionButtonProps<T> = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "onClick" | "children"> & {
  action: () => Promise<ActionResult<T>>;
  /** What success is announced as. */
  done: string | ((data: T) => string);
  /** Asked first; cancelling runs nothing. */
  confirm?: string;
  spacing?: string;
  /** The label, or the label while the action is running and when it is not. */
  children: ReactNode | ((pending: boolean) => ReactNode);
};

/** One button that runs one server action, with what it did said right under it (see useServerAction). */
export function ActionButton<T>({ action, done, confirm, spacing, children, ...props }: ActionButtonProps<T>) {
  const { pending, run, feedback } = useServerAction({ spacing });
  return (
    <div>
      <BusyButton
        {...props}
        type="button"
        busy={pending}
        onClick={() => {
          if (confirm && !window.confirm(confirm)) return;
          run(action, done);
        }}
      >
        {typeof children === "function" ? children(pending) : children}
      </BusyButton>
      {feedback}
    </div>
  );
}
