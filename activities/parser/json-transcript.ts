/**
 * The import format of ready transcripts (.json):
 *   {"utterances": [{"actor": "SPEAKER1", "tokens": [{"value": "Hello", "tsStart": 0, "tsEnd": 420,
 *     "confidence": 0.93, "hints": [{"value": "Yellow", "confidence": 0.2}]}]}]}
 * Times in milliseconds from 0 to 48 hours (tsEnd >= tsStart, domain/transcript.ts); confidence 0..1 and hints
 * optional. Utterances keep the order and the actors of the file (tokens are not re-split on pauses);
 * punctuation-only tokens join the preceding one.
 */
import { z } from 'zod';
import { buildUtterances, tokenTimesProblem, type TranscriptUtterance } from '../../domain/transcript';
import { badInput } from './work';
import { stepError } from '../../domain/step-errors';

const ms = z.number();
const confidence = z.number().min(0).max(1).nullable().optional();

const tokenSchema = z
  .object({
    value: z.string().max(1000),
    tsStart: ms,
    tsEnd: ms,
    confidence,
    hints: z
      .array(z.object({ value: z.string().min(1).max(1000), confidence }))
      .max(20)
      .optional(),
  })
  .superRefine((t, ctx) => {
    const problem = tokenTimesProblem(t.tsStart, t.tsEnd);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const transcriptImportSchema = z.object({
  utterances: z
    .array(
      z.object({
        actor: z.string().trim().min(1).max(100),
        tokens: z.array(tokenSchema),
      }),
    )
    .min(1),
});

export type TranscriptImport = z.infer<typeof transcriptImportSchema>;

export function parseJsonTranscript(buf: Buffer): TranscriptUtterance[] {
  let data: unknown;
  try {
    data = JSON.parse(buf.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    throw badInput(stepError.notJson.text({}));
  }
  const parsed = transcriptImportSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? issue.path.join('.') : 'the file';
    throw badInput(
      `The JSON file is not a transcript ({"utterances": [{"actor", "tokens": [{"value", "tsStart", "tsEnd"}]}]}): ${where}: ${issue.message}.`,
    );
  }
  const utterances: TranscriptUtterance[] = [];
  for (const u of parsed.data.utterances) {
    const built = buildUtterances(
      u.tokens.map((t) => ({
        value: t.value,
        startMs: t.tsStart,
        endMs: t.tsEnd,
        confidence: t.confidence,
        hints: t.hints?.map((h) => ({ value: h.value, confidence: h.confidence ?? null })),
      })),
      { actor: u.actor, pauseMs: Number.POSITIVE_INFINITY, maxTokens: Number.POSITIVE_INFINITY },
    );
    utterances.push({ actor: u.actor, tokens: built.flatMap((b) => b.tokens) });
  }
  return utterances.filter((u) => u.tokens.length > 0);
}
