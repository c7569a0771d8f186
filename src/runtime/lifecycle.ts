// Shutdown under one deadline. Roles stop at once, each undoing its own steps in reverse, so a slow
// client on the HTTP server cannot eat into the delivery workers' time; what the roles share (the Redis
// connections, the queue producers) closes only after every role, so nothing is used after it is closed.
import type { Logger } from "../observability/logger.ts";

/** Undo one started step. `deadline` aborts when the shutdown deadline passes: cut what is left. */
export type StopStep = (deadline: AbortSignal) => Promise<void>;

export interface LifecycleOptions {
  /** When roles must be done: steps see `deadline` abort then. */
  readonly deadlineMs?: number;
  /** How long roles still get after the deadline for their forced steps, before shared resources close anyway. */
  readonly afterDeadlineMs?: number;
}

/** One role's steps, undone last registered first. */
export interface RoleStops {
  onStop(name: string, stop: StopStep): void;
}

interface Step {
  readonly name: string;
  readonly stop: StopStep;
}

export const DEFAULT_DEADLINE_MS = 25_000;
// The worker pools abort their attempts at the deadline and wait 2 s for the hand-backs; sinks get 3 s to close.
const DEFAULT_AFTER_DEADLINE_MS = 4_000;

export class Lifecycle {
  private readonly shared: Step[] = [];
  private readonly roles = new Map<string, Step[]>();
  private stopping: Promise<void> | undefined;
  private readonly deadlineMs: number;
  private readonly afterDeadlineMs: number;

  constructor(
    private readonly logger: Logger,
    opts: LifecycleOptions = {},
  ) {
    this.deadlineMs = opts.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.afterDeadlineMs = opts.afterDeadlineMs ?? DEFAULT_AFTER_DEADLINE_MS;
  }

  /** Register what undoes a shared resource that has just been created: closed after every role. */
  onStop(name: string, stop: StopStep): void {
    this.shared.push({ name, stop });
  }

  /** The steps of role `name`, stopped in parallel with every other role's. */
  role(name: string): RoleStops {
    let steps = this.roles.get(name);
    if (!steps) {
      steps = [];
      this.roles.set(name, steps);
    }
    const list = steps;
    return { onStop: (step, stop) => void list.push({ name: `${name}: ${step}`, stop }) };
  }

  /** Stop every role at once, then the shared resources. A failing step is logged; the rest still run. */
  stop(): Promise<void> {
    this.stopping ??= this.run();
    return this.stopping;
  }

  private async run(): Promise<void> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error("shutdown deadline")), this.deadlineMs);
    const running = new Set<string>();
    const roles = [...this.roles.values()].map(async (steps) => {
      for (const step of [...steps].reverse()) {
        running.add(step.name);
        await this.runStep(step, deadline.signal);
        running.delete(step.name);
      }
    });
    let giveUp: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      giveUp = setTimeout(() => resolve("late"), this.deadlineMs + this.afterDeadlineMs);
    });
    if ((await Promise.race([Promise.all(roles), late])) === "late") {
      this.logger.error({ steps: [...running] }, "still stopping past the shutdown deadline; closing anyway");
    }
    clearTimeout(giveUp);
    for (const step of [...this.shared].reverse()) await this.runStep(step, deadline.signal);
    clearTimeout(timer);
  }

  private async runStep(step: Step, deadline: AbortSignal): Promise<void> {
    try {
      await step.stop(deadline);
    } catch (err) {
      this.logger.error({ err: (err as Error).message, step: step.name }, "error while stopping");
    }
  }
}
