import { type ReactNode, Suspense } from "react";
import { ChatPanelClient } from "@/components/chat-panel-client";
import { getPrincipal } from "@/lib/auth/get-principal";
import { getConfig } from "@/lib/config";
import { researchAvailability } from "@/lib/llm/research-model";

/** The records area keeps the ask panel open across the list and record pages. */
export default async function RecordsLayout({ children }: { children: ReactNode }) {
  // Whether research mode can run (a chat model configured), and if not why, for the panel to say:
  // how to set it up to an administrator, what it means to anyone else.
  const research = researchAvailability(getConfig(), (await getPrincipal()) ?? { role: "researcher" as const });
  return (
    <>
      {children}
      <Suspense fallback={null}>
        <ChatPanelClient research={research} />
      </Suspense>
    </>
  );
}
