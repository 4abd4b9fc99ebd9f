package transform

import "strings"

// The curated list of deterministic standard-library code that observed code
// runs natively in capture and in replay, since it returns the same results
// in both. It is data: docs/design/boundary-model.md lists it ("Deterministic
// library code runs natively"), and a package can extend it with
// //capture:pure (docs/annotations.md).
//
// A call to a listed function is native only when every argument's static
// type is one the observed code owns (see ownedType): a placeholder fed to
// fmt.Sprintf would print something else than the recorded object did.
// Everything not listed is an outcall; in particular time, math/rand (v1 and
// v2), crypto/rand, os, net, syscall, runtime, os/exec are never listed.

// purePackages: every exported function is pure.
var purePackages = map[string]bool{
	"strings": true, "strconv": true, "unicode": true, "unicode/utf8": true, "unicode/utf16": true,
	"math": true, "math/bits": true, "math/cmplx": true, "errors": true, "sort": true, "slices": true,
	"maps": true, "cmp": true, "bytes": true, "path": true, "html": true, "encoding/hex": true,
	"encoding/base64": true, "encoding/base32": true, "encoding/binary": true, "hash/crc32": true,
	"hash/fnv": true, "crypto/sha256": true, "crypto/sha1": true, "crypto/md5": true, "crypto/sha512": true,
	"container/list": true, "container/heap": true, "container/ring": true, "regexp": true,
	// Reads and writes only through the io.Reader/io.Writer it is given
	// (native only when that is owned: ownedArgs, pureLocal).
	"encoding/csv":   true,
	"text/tabwriter": false, "sync": true, "sync/atomic": true, "iter": true, "unique": false,
	// Over owned values only: reflect.ValueOf and TypeOf of values from
	// outside are rejected (reflect.go).
	"reflect": true,
}

// pureFuncs: individual pure functions of otherwise impure packages.
var pureFuncs = map[string]bool{
	"fmt.Sprintf": true, "fmt.Sprint": true, "fmt.Sprintln": true, "fmt.Errorf": true, "fmt.Append": true,
	"fmt.Appendf": true, "fmt.Appendln": true,
	// Writing into a buffer the observed code holds (&buf): see ownedArgs.
	"fmt.Fprintf": true, "fmt.Fprint": true, "fmt.Fprintln": true,
	"encoding/json.Marshal": true, "encoding/json.MarshalIndent": true, "encoding/json.Unmarshal": true,
	"encoding/json.Valid": true, "encoding/json.Compact": true, "encoding/json.Indent": true,
	"path/filepath.Join": true, "path/filepath.Base": true, "path/filepath.Dir": true, "path/filepath.Ext": true,
	"path/filepath.Clean": true, "path/filepath.Split": true, "path/filepath.ToSlash": true,
	"path/filepath.FromSlash": true, "path/filepath.IsAbs": true, "path/filepath.Match": true,
	"net/url.QueryEscape": true, "net/url.QueryUnescape": true, "net/url.PathEscape": true, "net/url.PathUnescape": true,
	"net/url.Parse": true, "net/url.ParseQuery": true,
	"time.ParseDuration": true,
}

// pureMethodTypes: methods of these types are pure when the receiver is a
// value the observed code holds directly (a local variable or a field, not a
// pointer that may have come from outside).
var pureMethodTypes = map[string]bool{
	"strings.Builder": true, "bytes.Buffer": true, "sync.Mutex": true, "sync.RWMutex": true,
	"sync.WaitGroup": true, "sync.Once": true, "sync.Map": true, "time.Duration": true,
	"strings.Replacer": false, "sync/atomic.Int64": true, "sync/atomic.Int32": true,
	"sync/atomic.Uint64": true, "sync/atomic.Uint32": true, "sync/atomic.Bool": true,
	"sync/atomic.Value": true, "sync/atomic.Pointer": true, "math/big.Int": true, "math/big.Float": true,
	"math/big.Rat": true,
}

// pureTimeMethods: methods of time.Time that depend only on the value.
// Replayed times carry no monotonic reading, so comparisons and Sub use the
// wall clock in replay; they differ from the capture only if the wall clock
// jumped during it (docs/limitations.md).
var pureTimeMethods = map[string]bool{
	"After": true, "Before": true, "Equal": true, "Compare": true, "IsZero": true, "Sub": true, "Add": true,
	"AddDate": true, "Unix": true, "UnixNano": true, "UnixMilli": true, "UnixMicro": true, "UTC": true,
	"Year": true, "Month": true, "Day": true, "Hour": true, "Minute": true, "Second": true, "Nanosecond": true,
	"Weekday": true, "YearDay": true, "Date": true, "Clock": true, "Truncate": true, "Round": true,
	"Format": true, "AppendFormat": true, "String": true, "MarshalJSON": true, "MarshalText": true,
}

// exitFuncs end the process: the log is closed before the call.
var exitFuncs = map[string]bool{
	"os.Exit": true, "log.Fatal": true, "log.Fatalf": true, "log.Fatalln": true,
	"(*log.Logger).Fatal": true, "(*log.Logger).Fatalf": true, "(*log.Logger).Fatalln": true,
}

func isPureFunc(pkgPath, name string, extra map[string]bool) bool {
	if purePackages[pkgPath] || pureFuncs[pkgPath+"."+name] || extra[pkgPath+"."+name] || extra[pkgPath] {
		return true
	}
	return false
}

// isPureVarPackage: package variables of pure packages (e.g.
// base64.StdEncoding, utf8.RuneError) are read natively.
func isPureVarPackage(pkgPath string) bool {
	return purePackages[pkgPath] && !strings.HasPrefix(pkgPath, "sync")
}
