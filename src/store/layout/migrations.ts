// The layout migrations this release carries, in order (each `from` is the previous one's `to`).
// Layout 0 → 1 (carrying pre-ledger deliveries into rows and jobs) is not among them yet: a process
// finding pre-ledger data refuses to start (ensure-layout.ts) rather than stamp layout 1 over data it
// would never pick up. A migration is added here as a module of this folder.
import type { LayoutMigration } from "./migration.ts";
import { layout1To2 } from "./migrations/layout-1-to-2.ts";

export const MIGRATIONS: readonly LayoutMigration[] = [layout1To2];
