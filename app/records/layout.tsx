import { type ReactNode, Suspense } from "react";
import { ChatPanelClient } from "@/components/chat-panel-client";

/** The records area keeps the ask panel open across the list and record pages. */
export default function RecordsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <Suspense fallback={null}>
        <ChatPanelClient />
      </Suspense>
    </>
  );
}
