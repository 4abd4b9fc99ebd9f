// Reads rules_capture event logs with apache-arrow (JavaScript), an Arrow
// implementation independent of ours, and prints one JSON summary per log:
// rows, counts by kind, counts by site, schema metadata keys.
// Usage: node read.mjs LOG...
import { readFileSync } from 'node:fs';
import { tableFromIPC, compressionRegistry, CompressionType } from 'apache-arrow';
import { decompress } from 'fzstd';

// apache-arrow ships no zstd codec; the log compresses buffers with zstd
// (Arrow IPC BodyCompression), so register a pure-JS decoder. apache-arrow
// views the decoded bytes as typed arrays, which must start 8-byte aligned:
// copy when fzstd returns a view into a larger buffer.
compressionRegistry.set(CompressionType.ZSTD, {
  decode(bytes) {
    const out = decompress(bytes);
    return out.byteOffset % 8 === 0 ? out : out.slice();
  },
});

for (const path of process.argv.slice(2)) {
  const table = tableFromIPC(readFileSync(path));
  const kinds = {};
  const sites = {};
  const kind = table.getChild('kind');
  const site = table.getChild('site');
  let prevSeq = 0n;
  const seq = table.getChild('seq');
  for (let i = 0; i < table.numRows; i++) {
    const k = kind.get(i);
    kinds[k] = (kinds[k] ?? 0) + 1;
    const s = site.get(i);
    sites[s] = (sites[s] ?? 0) + 1;
    const q = seq.get(i);
    if (q <= prevSeq) throw new Error(`${path}: seq ${q} after ${prevSeq}`);
    prevSeq = q;
  }
  const metadata = Object.fromEntries(table.schema.metadata);
  console.log(JSON.stringify({
    path,
    rows: table.numRows,
    columns: table.schema.fields.map((f) => `${f.name}:${f.type}`),
    kinds,
    sites,
    format_version: metadata['rules_capture.format_version'],
    status: metadata['rules_capture.status'],
  }));
}
