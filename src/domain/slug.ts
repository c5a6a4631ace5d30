/**
 * Customer slugs are capabilities: whoever has the link sees the customer's data, so a slug
 * must not be guessable. 16 bytes from the platform CSPRNG give 128 random bits, written as
 * 26 characters of lowercase RFC 4648 base32 (URL-safe, no padding).
 */
/**
 * What the API can look a slug up by (src/schemas/params.ts) and the sync accepts from the back
 * office (src/sync/streams.ts): wider than what we mint, so slugs made elsewhere still resolve.
 * The pattern is written once, in the dialect JavaScript and Postgres regular expressions share.
 */
export const SLUG_MAX_LENGTH = 64;
export const SERVABLE_SLUG_SQL = `^[A-Za-z0-9_-]{1,${SLUG_MAX_LENGTH}}$`;
export const SERVABLE_SLUG = new RegExp(SERVABLE_SLUG_SQL);

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
export const SLUG_RANDOM_BYTES = 16;

export function newSlug(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SLUG_RANDOM_BYTES));
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}
