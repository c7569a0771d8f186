// The board's page is rewritten to fetch nothing from another origin (it once linked web fonts from
// fonts.googleapis.com); links to the gateway's own files stay.
import { expect, it } from "vitest";
import { selfContainedBoardPage } from "../../src/api/bull-board-page.ts";

it("drops links to other origins, keeps local ones, and points the font variables at system fonts", () => {
  const page = selfContainedBoardPage(
    [
      "<html><head>",
      '<link href="https://fonts.googleapis.com/css2?family=IBM+Plex+Sans" rel="stylesheet">',
      "<link rel='preconnect' href='//fonts.gstatic.com' crossorigin>",
      '<link rel="icon" href="static/images/logo.svg">',
      '<link href="static/css/main.css" rel="stylesheet"></head>',
      "<body><div style=\"font-family:'IBM Plex Sans',sans-serif\"></div></body></html>",
    ].join("\n"),
  );
  expect(page).not.toMatch(/fonts\.g|IBM Plex/);
  expect(page).toContain('<link rel="icon" href="static/images/logo.svg">');
  expect(page).toMatch(
    /<link href="static\/css\/main.css" rel="stylesheet"><style>:root\{--font-sans:system-ui/,
  );
  expect(page).toContain('style="font-family:sans-serif"');
});
