// hostile_header_values: what the gateway builds from data is always a valid header value, and decodes
// back to the data.
import fc from "fast-check";
import { expect, it } from "vitest";
import { headerSafe } from "../../src/sinks/header-value.ts";
import { runs } from "../support/property.ts";

it("hostile_header_values: any string encodes to visible ASCII that decodeURIComponent turns back", () => {
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (value) => {
      const encoded = headerSafe(value);
      expect(encoded).toMatch(/^[\x21-\x7e]*$/);
      expect(decodeURIComponent(encoded)).toBe(value);
    }),
    runs(500),
  );
  expect(headerSafe("acme:stripe:j:evt_1N")).toBe("acme:stripe:j:evt_1N");
  expect(headerSafe("-:s:j:€ 50%\r\n")).toBe("-:s:j:%E2%82%AC%2050%25%0D%0A");
});
