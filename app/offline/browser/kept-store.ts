import * as v from "valibot";
import {
  claimed,
  type HeardAnswer,
  heardAnswerSchema,
  holdsClaim,
  type KeptRecording,
  keepPlan,
  keptRecordingSchema,
  released,
  unexpired,
} from "./kept-recordings";

/**
 * The recordings heard offline and their answers, in IndexedDB (docs/decisions/057-heard-offline.md),
 * shared by the site's tabs and its service worker. Every operation is one transaction applying the
 * rules of kept-recordings.ts; IndexedDB runs the read-write transactions of one store one after
 * the other, whoever opened them, which is what makes a claim a lock across tabs and the worker.
 */

export type KeptStore = {
  /** Keeps the recording, dropping the expired ones and the oldest over the bound. */
  keep(recording: KeptRecording, now: number): Promise<void>;
  /** The recordings still within their time, oldest first (the expired ones are dropped). */
  list(now: number): Promise<KeptRecording[]>;
  /** Claims the recording for `token`; undefined when it is gone or another sender holds it. */
  claim(id: string, token: string, now: number): Promise<KeptRecording | undefined>;
  /** Gives the claim back: the recording waits for the next sender. */
  release(id: string, token: string): Promise<void>;
  /** Replaces the recording by its answer, if `token` still holds the claim; false otherwise. */
  complete(id: string, token: string, answer: HeardAnswer): Promise<boolean>;
  /** Takes every answer (each one to one taker), newest last; the expired ones are dropped. */
  takeAnswers(now: number): Promise<HeardAnswer[]>;
  /** How many recordings and answers wait. */
  counts(): Promise<{ kept: number; answers: number }>;
};

const databaseName = "tunewave-heard-offline";
const databaseVersion = 1;
const keptStore = "kept";
const answersStore = "answers";

function request<T>(operation: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    operation.onsuccess = () => resolve(operation.result);
    operation.onerror = () => reject(operation.error);
  });
}

/**
 * Runs `work` in one transaction and answers its result once the transaction has committed. The
 * work awaits only this transaction's own requests, so the transaction stays open throughout.
 */
function transaction<T>(
  database: IDBDatabase,
  stores: string[],
  mode: IDBTransactionMode,
  work: (tx: IDBTransaction) => Promise<T>,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const tx = database.transaction(stores, mode);
    let result: { value: T } | undefined;
    tx.oncomplete = () => (result ? resolve(result.value) : reject(new Error("transaction without result")));
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("transaction aborted"));
    work(tx).then(
      (value) => {
        result = { value };
      },
      (error: unknown) => {
        reject(error);
        try {
          tx.abort();
        } catch {
          // Already finished.
        }
      },
    );
  });
}

/** The records of a store that parse (one of another version of the site is dropped). */
async function readAll<T>(store: IDBObjectStore, schema: v.GenericSchema<unknown, T>) {
  const records: unknown[] = await request(store.getAll());
  const valid: T[] = [];
  for (const record of records) {
    const parsed = v.safeParse(schema, record);
    if (parsed.success) valid.push(parsed.output);
    else if (typeof record === "object" && record !== null && "id" in record)
      store.delete(record.id as IDBValidKey);
  }
  return valid;
}

async function readOne(store: IDBObjectStore, id: string): Promise<KeptRecording | undefined> {
  const parsed = v.safeParse(keptRecordingSchema, await request(store.get(id)));
  return parsed.success ? parsed.output : undefined;
}

/** The store in this browser's IndexedDB; undefined where there is none (or it cannot open). */
export function openKeptStore(factory: IDBFactory | undefined = globalThis.indexedDB): KeptStore | undefined {
  if (!factory) return undefined;
  let opened: Promise<IDBDatabase> | undefined;
  const database = () => {
    opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const opening = factory.open(databaseName, databaseVersion);
      opening.onupgradeneeded = () => {
        const created = opening.result;
        if (!created.objectStoreNames.contains(keptStore))
          created.createObjectStore(keptStore, { keyPath: "id" });
        if (!created.objectStoreNames.contains(answersStore))
          created.createObjectStore(answersStore, { keyPath: "id" });
      };
      opening.onsuccess = () => {
        const ready = opening.result;
        // A newer version of the site in another tab upgrades the database: this one lets go.
        ready.onversionchange = () => {
          ready.close();
          opened = undefined;
        };
        resolve(ready);
      };
      opening.onerror = () => {
        opened = undefined;
        reject(opening.error);
      };
    });
    return opened;
  };
  const run = async <T>(
    stores: string[],
    mode: IDBTransactionMode,
    work: (tx: IDBTransaction) => Promise<T>,
  ) => transaction(await database(), stores, mode, work);

  return {
    keep: (recording, now) =>
      run([keptStore], "readwrite", async (tx) => {
        const store = tx.objectStore(keptStore);
        const plan = keepPlan(await readAll(store, keptRecordingSchema), recording, (r) => r.heardAt, now);
        for (const id of plan.remove) store.delete(id);
        await request(store.put(plan.put));
      }),

    list: (now) =>
      run([keptStore], "readwrite", async (tx) => {
        const store = tx.objectStore(keptStore);
        const { kept, expired } = unexpired(await readAll(store, keptRecordingSchema), (r) => r.heardAt, now);
        for (const id of expired) store.delete(id);
        return kept;
      }),

    claim: (id, token, now) =>
      run([keptStore], "readwrite", async (tx) => {
        const store = tx.objectStore(keptStore);
        const record = await readOne(store, id);
        const taken = record && claimed(record, token, now);
        if (taken) await request(store.put(taken));
        return taken;
      }),

    release: (id, token) =>
      run([keptStore], "readwrite", async (tx) => {
        const store = tx.objectStore(keptStore);
        const record = await readOne(store, id);
        if (record) await request(store.put(released(record, token)));
      }),

    complete: (id, token, answer) =>
      run([keptStore, answersStore], "readwrite", async (tx) => {
        const store = tx.objectStore(keptStore);
        if (!holdsClaim(await readOne(store, id), token)) return false;
        store.delete(id);
        const answers = tx.objectStore(answersStore);
        const plan = keepPlan(
          await readAll(answers, heardAnswerSchema),
          answer,
          (a) => a.answeredAt,
          answer.answeredAt,
        );
        for (const gone of plan.remove) answers.delete(gone);
        await request(answers.put(plan.put));
        return true;
      }),

    takeAnswers: (now) =>
      run([answersStore], "readwrite", async (tx) => {
        const store = tx.objectStore(answersStore);
        const { kept } = unexpired(await readAll(store, heardAnswerSchema), (a) => a.answeredAt, now);
        await request(store.clear());
        return kept;
      }),

    counts: () =>
      run([keptStore, answersStore], "readonly", async (tx) => ({
        kept: await request(tx.objectStore(keptStore).count()),
        answers: await request(tx.objectStore(answersStore).count()),
      })),
  };
}
