/**
 * Money as a person reads it (src/page/format.ts): whole đồng, rounded half away from zero from
 * the exact figure, never "-0"; per-share prices as stored, up to 4 decimals; no digit lost to a
 * double, however large the amount.
 */
import { describe, expect, it } from "vitest";
import { Decimal } from "../../src/domain/decimal";
import { formatFor } from "../../src/page/format";

const NBSP = "\u00a0";
const vi = formatFor("vi");
const en = formatFor("en");
const d = Decimal.parse;

describe("the page's money", () => {
  it("is whole đồng, rounded half away from zero from the exact figure", () => {
    expect(vi.money(d("1553253.7"))).toBe(`1.553.254${NBSP}₫`);
    expect(vi.money(d("-120342026.45"))).toBe(`-120.342.026${NBSP}₫`);
    expect(vi.money(d("0.5"))).toBe(`1${NBSP}₫`);
    expect(vi.money(d("-0.5"))).toBe(`-1${NBSP}₫`);
    expect(vi.money(d("2.4999"))).toBe(`2${NBSP}₫`);
    expect(en.money(d("-7897671.95"))).toBe("-₫7,897,672");
    expect(en.money(d("9999999999999999.5"))).toBe("₫10,000,000,000,000,000");
    expect(en.money(d("1234567890123456.4999"))).toBe("₫1,234,567,890,123,456");
  });

  it("shows an amount that rounds to nothing as 0, never -0", () => {
    for (const text of ["-0.4", "-0.0001", "0", "0.49"]) {
      expect({ text, vi: vi.money(d(text)), en: en.money(d(text)) }).toEqual({ text, vi: `0${NBSP}₫`, en: "₫0" });
    }
  });

  it("keeps a per-share price as stored", () => {
    expect(vi.price(d("120500.5555"))).toBe(`120.500,5555${NBSP}₫`);
    expect(en.price(d("98450.5"))).toBe("₫98,450.5");
  });
});
