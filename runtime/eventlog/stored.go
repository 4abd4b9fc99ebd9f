package eventlog

import (
	"io"
	"os"
)

// PartBytes is what one part of a log takes in its file.
type PartBytes struct {
	Part  string `json:"part"`
	Bytes int64  `json:"bytes"`
}

// StoredBytes says where the bytes of the log at path go, as stored
// (compressed where the batch is): each column's buffers in the record
// batches, in schema order (the values column as its offsets and its
// data), then the record batches' headers, the dictionary batches, and
// the rest of the file (schema, end-of-stream marker, footer, padding,
// validity buffers). capture stats -columns prints it; it is how the size
// of a log is measured column by column (docs/log-format.md, "Size and
// speed").
func StoredBytes(path string) ([]PartBytes, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	names := [...]string{ColSeq, ColStream, ColKind, ColParent, ColSite, ColPos, ColRecvType, ColRecvID, "values offsets", ColValues}
	parts := make([]PartBytes, 0, len(names)+3)
	for _, n := range names {
		parts = append(parts, PartBytes{Part: n})
	}
	var headers, dicts int64
	for {
		msg, err := r.msgs.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch msg.htype {
		case headerDictBatch:
			dicts += int64(len(msg.meta)) + 8 + int64(len(msg.body))
		case headerRecBatch:
			headers += int64(len(msg.meta)) + 8
			for i := range numCols {
				parts[i].Bytes += msg.bufs[2*i+1].len
			}
			parts[numCols].Bytes += msg.bufs[2*colValues+2].len
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	rest := st.Size() - headers - dicts
	for _, p := range parts {
		rest -= p.Bytes
	}
	return append(parts, PartBytes{"record batch headers", headers}, PartBytes{"dictionary batches", dicts}, PartBytes{"rest", rest}), nil
}
