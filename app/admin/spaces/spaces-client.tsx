"use client";

import { useRouter } from "next/navigation";
import { BusyButton, SubmitButton } from "@/components/busy-button";
import { ActionFeedback } from "@/components/action-feedback";
import { useEffect, useState, useTransition } from "react";
import { activateSpaceAction, calibrateFusionAction, compareSpacesAction, registerSpaceAction, resetFusionAction, rollbackSpaceAction } from "./actions";
import { useServerAction } from "@/components/use-server-action";
import { NamedOptions } from "@/components/select-options";
import { ActionForm } from "@/components/action-form";
import { ActionButton } from "@/components/action-button";
import { LabelledField } from "@/components/labelled-field";
import { TextField } from "@/components/text-field";

/** Re-reads the page while a space is being built, so its progress moves. */
export function AutoRefreshClient({ seconds }: { seconds: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), seconds * 1000);
    return () => clearInterval(timer);
  }, [router, seconds]);
  return (
    <p className="mt-2 text-sm text-stone-600" role="status">
      A space is being built; this page follows its progress.
    </p>
  );
}

function useMessage() {
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string; fieldErrors?: Record<string, string[]> } | null>(null);
  const view = (
    <>
      <ActionFeedback message={message} spacing="mt-1" />
    </>
  );
  return { message, setMessage, view };
}

export function SpaceActionsClient(props: { spaceId: string; name: string; ready: boolean } | { rollback: true }) {
  if ("rollback" in props) {
    return (
      <ActionButton className="btn" action={() => rollbackSpaceAction()} done="Rolled back to the previous space.">
        Roll back to the previous space
      </ActionButton>
    );
  }
  return (
    <ActionButton
      className="btn btn-primary"
      disabled={!props.ready}
      title={props.ready ? undefined : "Wait until every record is indexed in this space."}
      confirm={`Search and answers will use ${props.name} from now on. Activate it?`}
      action={() => activateSpaceAction({ spaceId: props.spaceId })}
      done="Activated."
    >
      Activate
    </ActionButton>
  );
}

export function CompareSpacesClient({ sets, candidates }: { sets: { id: string; name: string }[]; candidates: { id: string; name: string }[] }) {
  const [pending, startTransition] = useTransition();
  const [setId, setSetId] = useState(sets[0]?.id ?? "");
  const [candidateId, setCandidateId] = useState(candidates[0]?.id ?? "");
  const [mode, setMode] = useState("hybrid");
  const [rows, setRows] = useState<
    { space: string; spaceId: string; metrics: { questions: number; recallAtK: number; ndcg10: number; mrr10: number } }[] | null
  >(null);
  const { setMessage, view } = useMessage();
  if (candidates.length === 0) return <p className="notice mt-2">No other space this server can use yet: register a new model below.</p>;
  return (
    <div className="mt-2">
      <ActionForm
        className="flex flex-wrap items-end gap-2"
        busy={pending}
        onSubmit={() => {
          startTransition(async () => {
            setMessage(null);
            const result = await compareSpacesAction({ goldenSetId: setId, candidateId, mode });
            if (result.status === "ok") setRows(result.data);
            else setMessage({ kind: "error", text: result.message });
          });
        }}
      >
        {(
          [
            ["compare-set", "Golden set", setId, setSetId, sets],
            ["compare-candidate", "Candidate space", candidateId, setCandidateId, candidates],
          ] as const
        ).map(([id, label, value, set, options]) => (
          <LabelledField key={id} htmlFor={id} label={label}>
            <select id={id} className="field-input" value={value} onChange={(event) => set(event.target.value)}>
              <NamedOptions items={options} />
            </select>
          </LabelledField>
        ))}
        <LabelledField htmlFor="compare-mode" label="Mode">
          <select id="compare-mode" className="field-input" value={mode} onChange={(event) => setMode(event.target.value)}>
            <option value="hybrid">Hybrid</option>
            <option value="semantic">Semantic</option>
          </select>
        </LabelledField>
        <SubmitButton className="btn btn-primary" busy={pending} busyLabel="Running…">
          Compare
        </SubmitButton>
      </ActionForm>
      {view}
      {rows && (
        <table className="mt-3 text-left text-sm" data-testid="space-comparison">
          <thead className="text-xs text-stone-500">
            <tr>
              <th scope="col" className="pr-4">
                Space
              </th>
              <th scope="col" className="pr-4">
                Recall@10
              </th>
              <th scope="col" className="pr-4">
                nDCG@10
              </th>
              <th scope="col">MRR</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.spaceId}>
                <th scope="row" className="pr-4 font-medium">
                  {row.space}
                </th>
                <td className="pr-4 tabular-nums">{(row.metrics.recallAtK * 100).toFixed(1)}%</td>
                <td className="pr-4 tabular-nums">{row.metrics.ndcg10.toFixed(3)}</td>
                <td className="tabular-nums">{row.metrics.mrr10.toFixed(3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function RegisterSpaceClient({ hashAllowed }: { hashAllowed: boolean }) {
  const { pending, run, feedback, fieldErrors: errors } = useServerAction();
  const [provider, setProvider] = useState("openai-compatible");
  const [form, setForm] = useState({ baseUrl: "", model: "", dimension: "", apiKeyEnv: "", language: "multilingual" });
  const input = (key: "baseUrl" | "model" | "dimension" | "apiKeyEnv", label: string, hint?: string) => (
    <TextField
      id={`space-${key}`}
      label={label}
      hint={hint}
      value={form[key]}
      errors={errors[key]}
      onValueChange={(value) => setForm({ ...form, [key]: value })}
    />
  );
  // Only what the chosen provider uses; the server validates it.
  const config =
    provider === "openai-compatible"
      ? {
          provider,
          baseUrl: form.baseUrl,
          model: form.model,
          dimension: Number(form.dimension),
          apiKeyEnv: form.apiKeyEnv || undefined,
          language: form.language,
        }
      : provider === "hash"
        ? { provider, dimension: Number(form.dimension) }
        : { provider };
  return (
    <ActionForm
      aria-label="New index space"
      className="mt-2 grid max-w-3xl grid-cols-1 gap-3 sm:grid-cols-2"
      onSubmit={() =>
        run(
          () => registerSpaceAction({ config }),
          (data) => `Registered; ${data.queued} records queued to build it.`,
        )
      }
    >
      <LabelledField htmlFor="space-provider" label="Provider">
        <select id="space-provider" className="field-input" value={provider} onChange={(event) => setProvider(event.target.value)}>
          <option value="openai-compatible">OpenAI-compatible endpoint (Ollama, vLLM, TEI, OpenAI)</option>
          <option value="local-use">Universal Sentence Encoder lite (offline)</option>
          {hashAllowed && <option value="hash">Feature hashing (tests)</option>}
        </select>
      </LabelledField>
      {provider === "openai-compatible" && (
        <>
          {input("baseUrl", "Base URL", "e.g. http://127.0.0.1:11434 for a local Ollama")}
          {input("model", "Model")}
          {input("dimension", "Dimension")}
          {input("apiKeyEnv", "API key variable", "The NAME of the environment variable holding the key; the key itself is never stored.")}
          <LabelledField htmlFor="space-language" label="Languages">
            <select id="space-language" className="field-input" value={form.language} onChange={(event) => setForm({ ...form, language: event.target.value })}>
              <option value="multilingual">Multilingual</option>
              <option value="en">English only (Spanish and Catalan go through the translation bridge)</option>
            </select>
          </LabelledField>
        </>
      )}
      {provider === "hash" && input("dimension", "Dimension")}
      <div className="sm:col-span-2">
        <BusyButton type="submit" className="btn btn-primary" busy={pending}>
          Register and build
        </BusyButton>
        {feedback}
      </div>
    </ActionForm>
  );
}

/** Measures a space's fusion weights on the golden sets, or returns it to equal weights. */
export function FusionActionsClient({
  spaceId,
  name,
  calibrated,
  canMeasure,
  sets,
  defaultSetId,
}: {
  spaceId: string;
  name: string;
  calibrated: boolean;
  canMeasure: boolean;
  sets: { id: string; name: string }[];
  defaultSetId: string;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [running, setRunning] = useState<"measure" | "reset" | null>(null);
  const [setId, setSetId] = useState(defaultSetId);
  const { setMessage, view } = useMessage();
  const run = (kind: "measure" | "reset") => {
    if (pending) return;
    setRunning(kind);
    startTransition(async () => {
      const result = kind === "measure" ? await calibrateFusionAction({ spaceId, goldenSetId: setId || undefined }) : await resetFusionAction({ spaceId });
      setRunning(null);
      if (result.status === "ok") {
        setMessage({
          kind: "ok",
          text: kind === "measure" ? `Measured ${name} on the golden sets; hybrid search uses the new weights now.` : `${name} is back to equal weights.`,
        });
        router.refresh();
      } else setMessage({ kind: "error", text: result.message });
    });
  };
  return (
    <div>
      <div className="flex flex-wrap items-end gap-2">
        <label className="text-sm">
          <span className="block text-xs text-stone-600">Measure on</span>
          <select className="input" value={setId} onChange={(event) => setSetId(event.target.value)} aria-label={`Golden questions to measure ${name} on`}>
            <option value="">Every golden set</option>
            <NamedOptions items={sets} />
          </select>
        </label>
        <BusyButton
          type="button"
          className="btn btn-primary"
          busy={running === "measure"}
          disabled={!canMeasure}
          title={canMeasure ? undefined : "This server cannot embed queries for this space."}
          onClick={() => run("measure")}
        >
          {calibrated ? "Measure again" : "Measure on golden sets"}
        </BusyButton>
        {calibrated && (
          <BusyButton type="button" className="btn" busy={running === "reset"} onClick={() => run("reset")}>
            Use equal weights
          </BusyButton>
        )}
      </div>
      {running === "measure" && (
        <p role="status" className="mt-1 text-sm text-stone-600">
          Searching every golden question in both legs… this takes about a second a question.
        </p>
      )}
      {view}
    </div>
  );
}
