module example.com/zeroiface

go 1.26
