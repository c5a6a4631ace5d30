/** What the Worker logs, as tests read it: one JSON object per line (src/log.ts). */
import { vi } from "vitest";

/** The JSON lines logged at error level while `action` ran. */
export async function errorLogs(action: () => Promise<unknown>): Promise<Array<Record<string, unknown>>> {
  const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    await action();
    return spy.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
  } finally {
    spy.mockRestore();
  }
}
