// What a stop signal asks for. A platform stops a process with one SIGTERM, then SIGKILL when its grace
// is over; a wrapper in between (tsx, npm, a shell's process group) relays signals the process was
// also sent itself, so a second signal within moments is an echo, not a decision. Only a person at a
// terminal pressing Ctrl-C again, after a pause, asks to give up the drain.

/** `drain`: begin the graceful stop; `ignore`: already stopping; `force`: exit now, drain unfinished. */
export type StopAction = "drain" | "ignore" | "force";

/** A repeated signal sooner than this after the first is taken for a relayed copy of it. */
export const ECHO_WINDOW_MS = 1000;

export class StopSignals {
  private firstAt: number | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Repeated SIGTERMs never force an exit: the drain has its own deadline, and SIGKILL is how a
   * platform insists. A SIGINT at least ECHO_WINDOW_MS after the first signal does.
   */
  receive(signal: "SIGTERM" | "SIGINT"): StopAction {
    const at = this.now();
    if (this.firstAt === undefined) {
      this.firstAt = at;
      return "drain";
    }
    return signal === "SIGINT" && at - this.firstAt >= ECHO_WINDOW_MS ? "force" : "ignore";
  }
}
