// The layout migrations this release carries, in order (each `from` is the previous one's `to`). A
// migration is added here as a module of ./migrations/.
import type { LayoutMigration } from "./migration.ts";
import { LAYOUT_0_TO_1 } from "./migrations/layout-0-to-1.ts";
import { layout1To2 } from "./migrations/layout-1-to-2.ts";

export const MIGRATIONS: readonly LayoutMigration[] = [LAYOUT_0_TO_1, layout1To2];
