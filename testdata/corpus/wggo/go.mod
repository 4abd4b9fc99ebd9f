module example.com/wggo

go 1.26
