// Share links: one cell's code carried in the link's fragment, `#share=<cell id>.<data>`. Browsers
// never send the fragment to a server, so the code goes only where the reader sends the link.
// <data> is the code as UTF-8, compressed by the browser's own CompressionStream("deflate-raw"), in
// base64url (RFC 4648 §5: letters, digits, "-" and "_", no padding). cells/share-controls.js makes
// them and cells/index.js opens them.

export const SHARE_PREFIX = "#share=";

// A whole link stays within 4,000 characters. Browsers accept far longer ones (Chromium 2 MB), but a
// link travels in a chat message, and chat apps cut or refuse long ones: Telegram takes 4,096
// characters per message (Discord 2,000), and link previews give up around there too. The biggest
// cell of this course (3 KB of code) makes a link of about 2,050 characters, a typical one 800.
export const MAX_LINK_LENGTH = 4000;

// Decompressed, a shared cell may have this many bytes: lesson cells have a few thousand, while
// deflate can blow a 4,000-character link up to megabytes.
const MAX_CODE_BYTES = 64 * 1024;

const FRAGMENT = /^([a-z0-9][a-z0-9_-]*)\.([A-Za-z0-9_-]+)$/; // cell ids as py_lessons/plugin/page/cells.py allows

/** reason: "too-large" (over the limits above) or "corrupt" (not a link this module made). */
export class ShareError extends Error {
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

function toBase64url(bytes) {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  try {
    return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (char) => char.charCodeAt(0));
  } catch {
    throw new ShareError("corrupt");
  }
}

/** The link to this page that shows `code` in the cell `cellId`; ShareError("too-large") if it
 * would be longer than MAX_LINK_LENGTH. */
export async function shareLink(cellId, code, page = location.href) {
  const compressed = new Blob([new TextEncoder().encode(code)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const data = toBase64url(new Uint8Array(await new Response(compressed).arrayBuffer()));
  const url = new URL(page);
  url.hash = `share=${cellId}.${data}`;
  if (url.href.length > MAX_LINK_LENGTH) throw new ShareError("too-large");
  return url.href;
}

/** {cellId, data} of a share fragment (`location.hash`), or null when `hash` is none; ShareError
 * when it is one that cannot be used. */
export function readShareFragment(hash) {
  if (!hash.startsWith(SHARE_PREFIX)) return null;
  if (hash.length > MAX_LINK_LENGTH) throw new ShareError("too-large");
  const match = FRAGMENT.exec(hash.slice(SHARE_PREFIX.length));
  if (!match) throw new ShareError("corrupt");
  return { cellId: match[1], data: match[2] };
}

/** The code a fragment's data carries; ShareError if it is corrupt or decompresses too large. */
export async function sharedCode(data) {
  const reader = new Blob([fromBase64url(data)]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const chunks = [];
  let size = 0;
  try {
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      size += part.value.length;
      if (size > MAX_CODE_BYTES) {
        reader.cancel().catch(() => {});
        throw new ShareError("too-large");
      }
      chunks.push(part.value);
    }
    return new TextDecoder("utf-8", { fatal: true }).decode(await new Blob(chunks).arrayBuffer());
  } catch (error) {
    throw error instanceof ShareError ? error : new ShareError("corrupt"); // not deflate, or not UTF-8
  }
}
