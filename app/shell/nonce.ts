import { createContext, useContext } from "react";

/**
 * The response's Content-Security-Policy nonce (edge/security-headers.ts), given to Remix's inline
 * scripts while rendering on the server. In the browser it is empty: the scripts have run.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
