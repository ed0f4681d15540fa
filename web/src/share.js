// A variant in a link: the text deflated (CompressionStream 'deflate-raw') and written in
// base64url after `#v=`. The fragment never reaches a server.

function toBase64Url(bytes) {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pipe(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The fragment (`v=...`) that carries `text`. */
export async function encode(text) {
  const packed = await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
  return `v=${toBase64Url(packed)}`;
}

/** The text a fragment carries, or null when it carries none. Throws on a damaged link. */
export async function decode(fragment) {
  const match = /(?:^#?|&)v=([A-Za-z0-9_-]+)/.exec(fragment);
  if (!match) return null;
  const bytes = await pipe(fromBase64Url(match[1]), new DecompressionStream('deflate-raw'));
  return new TextDecoder().decode(bytes);
}
