import { siteWorkerName } from "#scripts/site.ts";

/**
 * The site isolate's inspector (workerd's DevTools protocol, Miniflare `inspectorPort`), for the
 * heap readings (bench/heap.ts) and the profiler. Needs Node's WebSocket (`--experimental-websocket` on
 * Node 20).
 */

const answerTimeoutMs = 60_000;

export type Inspector = {
  call: <T = Record<string, unknown>>(method: string, params?: Record<string, unknown>) => Promise<T>;
  close: () => void;
};

/** A connection to a worker's inspector target (the site's unless named). */
export async function connectInspector(
  inspectorPort: number,
  workerName = siteWorkerName,
): Promise<Inspector> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as {
    id: string;
    webSocketDebuggerUrl: string;
  }[];
  const target = targets.find((entry) => entry.id.endsWith(workerName));
  if (!target) throw new Error(`no inspector target for ${workerName}: ${JSON.stringify(targets)}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
    setTimeout(() => reject(new Error("the inspector did not answer")), 10_000);
  });
  let id = 0;
  const call = <T>(method: string, params: Record<string, unknown> = {}) =>
    new Promise<T>((resolve, reject) => {
      const mine = ++id;
      // Under load (the fuzzer, 100 concurrent renders) an answer can take seconds, never a minute.
      const timer = setTimeout(() => {
        socket.removeEventListener("message", onMessage);
        reject(new Error(`the inspector did not answer ${method}`));
      }, answerTimeoutMs);
      // workerd exited (an isolate past its heap limit aborts it): say so now, not in a minute.
      const onClose = () => {
        clearTimeout(timer);
        reject(new Error(`the inspector closed during ${method}: workerd exited`));
      };
      socket.addEventListener("close", onClose, { once: true });
      const onMessage = (event: MessageEvent) => {
        const message = JSON.parse(String(event.data)) as {
          id?: number;
          result?: T;
          error?: { message: string };
        };
        if (message.id !== mine) return;
        clearTimeout(timer);
        socket.removeEventListener("message", onMessage);
        socket.removeEventListener("close", onClose);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result ?? ({} as T));
      };
      socket.addEventListener("message", onMessage);
      socket.send(JSON.stringify({ id: mine, method, params }));
    });
  return { call, close: () => socket.close() };
}
