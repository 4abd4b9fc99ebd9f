package eventlog

import "encoding/binary"

// appendSeqFrame appends the little-endian bytes of col as one standard
// zstd frame (RFC 8878) to dst, built without a match search: for the seq
// column, where a row usually differs from the one before only in its
// lowest byte (seq is dense; docs/log-format.md, "Compression").
//
// zstd's match search spends ~80 ns per row on this column (a sequence per
// 8 bytes, ~15% of the writer's compression CPU for the shop's events in
// a profile of the example shop under load) to find what is known
// beforehand: such a row is one literal byte followed by a copy of 7 bytes
// from 8 bytes back. A run of such rows becomes one compressed block whose
// three sequence codes are all RLE-coded (a single symbol each, zero bits
// per sequence), so the block is one literal byte per row plus ~10 bytes;
// other rows (a carry into the second byte, every 256 rows; a gap of 256
// or more dropped events) are stored in raw blocks. Any input is encoded
// correctly, only less compactly when rows are not dense.
func appendSeqFrame(dst []byte, col []uint64) []byte {
	// Magic, frame header descriptor (single segment, 4-byte content
	// size), content size. Single segment: the window is the content, so
	// no window size is stored and every byte written is in reach.
	dst = append(dst, 0x28, 0xb5, 0x2f, 0xfd, 0xa0)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(8*len(col)))
	if len(col) == 0 {
		return append(dst, 1, 0, 0) // an empty raw block, the last
	}
	// The first row has no row before it.
	dst = appendRawRows(dst, col[:1], len(col) == 1)
	// The copies use offset 8. zstd starts with repeat offsets 1, 4, 8: the
	// first copy names the third (offset code 3, one extra bit), which
	// makes 8 the first repeat offset; every later copy names that one
	// (offset code 1, no extra bits). Raw blocks leave them unchanged.
	repeatSet := false
	const maxRows = 16 << 10 // 128 KiB: a block's largest content
	for i := 1; i < len(col); {
		j := i
		for j < len(col) && j-i < maxRows && col[j]^col[j-1] < 256 {
			j++
		}
		if j == i { // not dense: raw rows up to the next dense one
			for j < len(col) && j-i < maxRows && col[j]^col[j-1] >= 256 {
				j++
			}
			dst = appendRawRows(dst, col[i:j], j == len(col))
			i = j
			continue
		}
		if !repeatSet {
			dst = appendCopyRows(dst, col[i:i+1], true, i+1 == len(col))
			repeatSet = true
			i++
			continue
		}
		dst = appendCopyRows(dst, col[i:j], false, j == len(col))
		i = j
	}
	return dst
}

// appendBlockHeader appends a block header: type 0 raw, 2 compressed.
func appendBlockHeader(dst []byte, size, typ int, last bool) []byte {
	v := uint32(size)<<3 | uint32(typ)<<1
	if last {
		v |= 1
	}
	return append(dst, byte(v), byte(v>>8), byte(v>>16))
}

func appendRawRows(dst []byte, rows []uint64, last bool) []byte {
	dst = appendBlockHeader(dst, 8*len(rows), 0, last)
	for _, r := range rows {
		dst = binary.LittleEndian.AppendUint64(dst, r)
	}
	return dst
}

// appendCopyRows appends a compressed block of rows (at most 16384), each
// of which differs from the row before it only in its lowest byte: per
// row a literal (that byte) and a sequence copying 7 bytes from 8 back.
// first selects the sequence for the frame's first copy (see
// appendSeqFrame).
func appendCopyRows(dst []byte, rows []uint64, first, last bool) []byte {
	n := len(rows)
	h := len(dst)
	dst = append(dst, 0, 0, 0) // the block header, once the size is known
	// Raw_Literals_Block header with the literals' size.
	switch {
	case n < 32:
		dst = append(dst, byte(n<<3))
	case n < 4096:
		dst = append(dst, byte(n<<4|1<<2), byte(n>>4))
	default:
		dst = append(dst, byte(n<<4|3<<2), byte(n>>4), byte(n>>12))
	}
	for _, r := range rows {
		dst = append(dst, byte(r))
	}
	switch { // Number_of_Sequences: one per row
	case n < 128:
		dst = append(dst, byte(n))
	case n < 0x7f00:
		dst = append(dst, byte(n>>8+0x80), byte(n))
	default:
		dst = append(dst, 0xff, byte(n-0x7f00), byte((n-0x7f00)>>8))
	}
	// Symbol_Compression_Modes: literal lengths, offsets and match
	// lengths RLE; then their one code each: literal length 1 (code 1),
	// offset code 1 (repeat offset 3, with one extra bit 1) or 0 (repeat
	// offset 1), match length 7 (code 4). The bit stream holds only the
	// extra bits (none, or the first copy's one) and the end mark.
	if first {
		dst = append(dst, 0x54, 1, 1, 4, 0b11)
	} else {
		dst = append(dst, 0x54, 1, 0, 4, 0b1)
	}
	size := len(dst) - h - 3
	v := uint32(size)<<3 | 2<<1
	if last {
		v |= 1
	}
	dst[h], dst[h+1], dst[h+2] = byte(v), byte(v>>8), byte(v>>16)
	return dst
}
