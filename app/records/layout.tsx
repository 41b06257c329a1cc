import { type ReactNode, Suspense } from "react";
import { ChatPanelClient } from "@/components/chat-panel-client";
import { getConfig } from "@/lib/config";
import { researchAvailability } from "@/lib/llm/research-model";

/** The records area keeps the ask panel open across the list and record pages. */
export default function RecordsLayout({ children }: { children: ReactNode }) {
  // Whether research mode can run (a chat model configured), and if not why, for the panel to say.
  const research = researchAvailability(getConfig());
  return (
    <>
      {children}
      <Suspense fallback={null}>
        <ChatPanelClient research={research} />
      </Suspense>
    </>
  );
}
