// The page a browser gets at /portal without a session: the script trades the link's token (in the
// fragment) for a session and reloads; without a token, or with a used one, it says how to get in.
import type { Html } from "../html.ts";
import { html } from "../html.ts";
import { page } from "../layout.ts";

export function signInPage(): Html {
  return page({
    title: "Opening the portal",
    body: html`<section class="panel" aria-labelledby="sign-in-heading">
      <h2 id="sign-in-heading">Sign-in link</h2>
      <p>
        The portal opens through a single-use link from your provider. If this page stays, the link was
        already used or has expired: ask for a new one.
      </p>
      <p id="sign-in-status" class="alert" role="alert" tabindex="-1"></p>
    </section>`,
  });
}
