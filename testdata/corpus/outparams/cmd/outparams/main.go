// Command outparams drives the decode package.
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"example.com/outparams/decode"
	"example.com/outparams/rowsdb"
)

func main() {
	fmt.Println(decode.Config([]byte(`{"name":"api","port":8080,"tags":["a","b"],"limit":5}`)))
	fmt.Println(decode.Config([]byte(`{"name":`)))
	fmt.Println(decode.Defaults([]byte(`{"name":"x"}`)))
	fmt.Println(decode.Defaults([]byte(`{"port":9}`)))

	var frame bytes.Buffer
	binary.Write(&frame, binary.BigEndian, decode.Header{Magic: 0xCAFE, Size: 5})
	frame.WriteString("hello")
	fmt.Println(decode.Frame(&frame))
	fmt.Println(decode.Frame(bytes.NewReader([]byte{0xCA, 0xFE, 0, 0, 0, 9, 'x'})))

	fmt.Println(decode.Pair("4 2"))
	fmt.Println(decode.Pair("7 x"))

	fmt.Println(decode.Adults(rowsdb.Open(), 30))
	fmt.Println(decode.Named([]byte(`{"name":"svc"}`)))
}
