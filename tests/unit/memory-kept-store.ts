import {
  claimed,
  type HeardAnswer,
  holdsClaim,
  type KeptRecording,
  keepPlan,
  released,
  unexpired,
} from "#app/offline/browser/kept-recordings.ts";
import type { KeptStore } from "#app/offline/browser/kept-store.ts";

/**
 * The IndexedDB store's contract in memory, over the same rules (kept-recordings.ts): each
 * operation one step, as a transaction is, with a turn of the event loop before it so that two
 * senders' steps interleave.
 */
export function memoryKeptStore(): KeptStore & {
  kept: Map<string, KeptRecording>;
  answers: Map<string, HeardAnswer>;
} {
  const kept = new Map<string, KeptRecording>();
  const answers = new Map<string, HeardAnswer>();
  // A yield to the other sender's pending step, as a transaction's queueing is: no timer.
  const step = () => new Promise<void>((resolve) => queueMicrotask(resolve));
  return {
    kept,
    answers,
    async keep(recording, now) {
      await step();
      const plan = keepPlan([...kept.values()], recording, (r) => r.heardAt, now);
      for (const id of plan.remove) kept.delete(id);
      kept.set(plan.put.id, plan.put);
    },
    async list(now) {
      await step();
      const { kept: within, expired } = unexpired([...kept.values()], (r) => r.heardAt, now);
      for (const id of expired) kept.delete(id);
      return within;
    },
    async claim(id, token, now) {
      await step();
      const record = kept.get(id);
      const taken = record && claimed(record, token, now);
      if (taken) kept.set(id, taken);
      return taken;
    },
    async release(id, token) {
      await step();
      const record = kept.get(id);
      if (record) kept.set(id, released(record, token));
    },
    async complete(id, token, answer) {
      await step();
      if (!holdsClaim(kept.get(id), token)) return false;
      kept.delete(id);
      const plan = keepPlan([...answers.values()], answer, (a) => a.answeredAt, answer.answeredAt);
      for (const gone of plan.remove) answers.delete(gone);
      answers.set(plan.put.id, plan.put);
      return true;
    },
    async takeAnswers(now) {
      await step();
      const { kept: within } = unexpired([...answers.values()], (a) => a.answeredAt, now);
      answers.clear();
      return within;
    },
    async counts() {
      await step();
      return { kept: kept.size, answers: answers.size };
    },
  };
}
