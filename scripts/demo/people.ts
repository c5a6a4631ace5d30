/** Vietnamese names, e-mail addresses and +84 mobile numbers for demo staff and customers. */
import type { Random } from "./random";

const FAMILY = [
  "Nguyễn",
  "Trần",
  "Lê",
  "Phạm",
  "Hoàng",
  "Huỳnh",
  "Phan",
  "Vũ",
  "Võ",
  "Đặng",
  "Bùi",
  "Đỗ",
  "Hồ",
  "Ngô",
  "Dương",
  "Lý",
];
const MALE_MIDDLE = ["Văn", "Hữu", "Đức", "Minh", "Quang", "Thành", "Công", "Gia"];
const MALE_GIVEN = ["An", "Bảo", "Dũng", "Hải", "Hùng", "Khoa", "Long", "Nam", "Phúc", "Quân", "Sơn", "Tuấn", "Việt", "Khánh"];
const FEMALE_MIDDLE = ["Thị", "Ngọc", "Thu", "Thanh", "Bảo", "Kim", "Minh", "Phương"];
const FEMALE_GIVEN = ["Anh", "Chi", "Hà", "Hương", "Lan", "Linh", "Mai", "Ngân", "Phương", "Thảo", "Trang", "Vy", "Yến", "Hạnh"];

/** The firm's advisers; every customer is looked after by one of them. */
export const STAFF_NAMES = ["Đặng Minh Tuấn", "Hoàng Thị Lan", "Bùi Quang Huy"];

/** Viettel, Vinaphone, Mobifone and other mobile prefixes, after +84. */
const MOBILE_PREFIXES = [
  "32",
  "33",
  "34",
  "35",
  "36",
  "37",
  "38",
  "39",
  "70",
  "76",
  "77",
  "78",
  "79",
  "81",
  "82",
  "83",
  "84",
  "85",
  "86",
  "88",
  "89",
  "90",
  "91",
  "93",
  "94",
  "96",
  "97",
  "98",
];

export function personName(rng: Random): string {
  const female = rng.chance(0.5);
  const middle = rng.pick(female ? FEMALE_MIDDLE : MALE_MIDDLE);
  const given = rng.pick(female ? FEMALE_GIVEN : MALE_GIVEN);
  return `${rng.pick(FAMILY)} ${middle} ${given}`;
}

/** ASCII for an address: drop the diacritics (đ has none to drop, so it is mapped by hand). */
function ascii(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/đ/g, "d")
    .replace(/Đ/g, "D")
    .toLowerCase();
}

/**
 * `given.family@domain`, the way Vietnamese addresses are usually made; a number is appended
 * when the address is already taken in this book.
 */
export function emailFor(name: string, domain: string, taken: Set<string>): string {
  const parts = ascii(name).split(" ");
  const local = `${parts.at(-1)}.${parts[0]}`;
  let email = `${local}@${domain}`;
  for (let n = 2; taken.has(email); n++) email = `${local}${n}@${domain}`;
  taken.add(email);
  return email;
}

/** +84 followed by a nine-digit mobile number. */
export function mobilePhone(rng: Random): string {
  return `+84${rng.pick(MOBILE_PREFIXES)}${String(rng.int(0, 9_999_999)).padStart(7, "0")}`;
}
