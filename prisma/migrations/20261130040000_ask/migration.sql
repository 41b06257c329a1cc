-- What an answer was built from: retrieval scores, the refusal threshold and its near-misses,
-- sources withheld by egress policy, dropped citations, the generator and timings.
ALTER TABLE "chat_messages" ADD COLUMN "provenance" JSONB NOT NULL DEFAULT '{}';

-- A section may override the answer generator's system prompt.
ALTER TABLE "sections" ADD COLUMN "answer_prompt" TEXT;
